// http: a server under load, not a batch of tasks. It has no runTask: run.js hands the whole run to
// http/primary.js (and cluster children to http/cluster.js), and loader.js drives it from a second
// container. This entry lets spec.js check LAB_SPEC for it like for every workload.

export { defaults, parseParams } from '../http/params.js';

export const serves = true;
