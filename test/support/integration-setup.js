// Set up in every integration test file. Integration tests build images and run real containers on a shared machine:
// minutes, not seconds (testTimeout is a global Jest option, so the integration project raises it here). And what a
// failed test left running (a runner it meant to stop, a shell around one) is stopped when its file ends: a child that
// ended later, after Jest tore the file down, would fail whichever file runs next in that worker (execa's exit handler
// writes to a global Jest has soft-deleted, and that overflows the stack: jestjs/jest#16044).
import { afterAll, jest } from '@jest/globals';
import { stopChildren } from './children.js';

jest.setTimeout(600_000);

afterAll(stopChildren);
