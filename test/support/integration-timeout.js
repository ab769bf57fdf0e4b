// Integration tests build images and run real containers on a shared machine: minutes, not seconds.
// (testTimeout is a global Jest option, so the integration project raises it here.)
import { jest } from '@jest/globals';

jest.setTimeout(600_000);
