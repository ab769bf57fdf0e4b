// The backend contract: what the run loop asks of whatever runs a container, and what it gets back. The loop
// (run/run-matrix.js, run/dispatch-runs.js) knows only this module and the lanes it is handed; the Docker backend
// (docker/runs/executor.js, docker/runs/lanes.js) is one implementation, the Kubernetes backend
// (kubernetes/executor.js, one Job per run) another, the fake backend beside this file (fake.js) the third;
// test/support/backend-contract.js holds all three to the rules below (docs/architecture.md, "The backend contract").
//
// The rules a backend keeps:
// - `execute(run, { signal })` starts one run (a RunSpec: image choice, env, limits, mounts, timeout, labels from its
//   experiment, cell and run key) and resolves with its Outcome once nothing of it is left running.
// - A run that failed (non-zero exit, out of memory, past its timeout, refused by the engine) is an Outcome, never a
//   throw: it gets a row like any other (collect/to-rows.js judges it).
// - `signal` aborted (Ctrl-C, a results file that cannot be written): stop the run, remove what it made, resolve with
//   `{ aborted: true }`; the run gets no row and `--resume` runs it again.
// - The engine went away (socket refused, vanished): throw `backendLost(...)`. The run gets no row; the dispatcher
//   drops every lane of that engine and hands the run to another lane, or returns it as not run.
// - Any other throw ends the matrix (rows written so far are kept).
import { LabError } from '../errors.js';

/**
 * @typedef {import('../plan/plan-runs.js').RunSpec} RunSpec  what a backend receives
 */

/**
 * What a backend resolves with, in one of three shapes: one container's outcome (below); an http server/loader pair's
 * `{ pair, loaderLimits, startedAt, finishedAt }`; a user command's `{ commandRun, startedAt, finishedAt }`
 * (collect/to-rows.js turns each into one row).
 * @typedef {object} Outcome
 * @property {number|null} exitCode
 * @property {string} stdout        the workload's one JSON line is read from it (collect/parse-result.js)
 * @property {string} stderr
 * @property {boolean} oomKilled
 * @property {boolean} timedOut
 * @property {boolean} [aborted]    stopped by the signal: no row
 * @property {number} containerMs   how long the container lived
 * @property {Date} startedAt
 * @property {Date} finishedAt
 * @property {string} [engine]      where the run went (lanes set it)
 * @property {string} [slotCpuset]  the slot's CPUs, with --slots
 */

/**
 * @typedef {object} Backend
 * @property {(run: RunSpec, options: { signal?: AbortSignal, slotCpuIds?: number[] }) => Promise<Outcome>} execute
 */

/**
 * How busy the engine's host was over a window while nothing of ours ran: its CPUs and the CPU time everything used.
 * @typedef {{ cpus: number, cpuMs: number, windowMs: number }} HostSample
 */

/**
 * One place a run can go: an engine's slot. `engine` names the engine (a lost engine takes all its lanes with it).
 * `sampleHost` (optional) lets the loop wait for a quiet moment when runs keep being disturbed (run/busy-gate.js); a
 * backend without it is never waited for. It resolves null when it could not sample.
 * @typedef {{ id: string, engine: string, slot: { index: number, cpuset?: string },
 *   execute: (run: RunSpec, options: { signal?: AbortSignal }) => Promise<Outcome>,
 *   sampleHost?: (options: { windowMs?: number, signal?: AbortSignal }) => Promise<HostSample|null> }} Lane
 */

/**
 * A backend of one engine without slots as its one lane: what the loop runs on when nothing cuts an engine into slots
 * (the fake backend's matrices, a backend that is its own engine).
 * @param {Backend} backend
 * @param {{ engine?: string }} [options]  the engine's name (a lost engine takes its lane with it)
 * @returns {Lane}
 */
export function createLane(backend, { engine = 'default' } = {}) {
  return { id: `${engine}#0`, engine, slot: { index: 0 }, execute: (run, options) => backend.execute(run, options) };
}

/** The code of the one error a backend throws for a run it could not finish because its engine went away. */
export const BACKEND_LOST = 'ERR_BACKEND_LOST';

/**
 * The engine went away during a run.
 * @param {string} message  what went away, during which run
 * @param {{ engine?: string, hint?: string, cause?: unknown }} [context]
 */
export function backendLost(message, context = {}) {
  return new LabError(BACKEND_LOST, message, context);
}

export function isBackendLost(error) {
  return error?.code === BACKEND_LOST;
}
