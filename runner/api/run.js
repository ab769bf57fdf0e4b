// run(): a matrix from code, shaped like autocannon's: the value returned is an event emitter (every progress
// event of the matrix, as they happen) and a promise of the outcome. The whole sequence lives here — load,
// resume, plan, the Docker session, the experiments — so the CLI only prints and sets the exit status.
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readProject } from '../results/run-info.js';
import { preparePlan } from './plan.js';

const PROJECT_DIR = fileURLToPath(new URL('../../', import.meta.url));
const PACKAGE = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

/**
 * @param {string|object} [configOrFile]  as for plan()
 * @param {object} [options]  plan()'s (only, seed, resume, engines, slots) and:
 * @param {string} [options.out]           the results folder (one experiment) or their parent (several);
 *   default: results/<experiment>-<UTC time> under the working directory
 * @param {boolean} [options.failFast]     stop at the first run that is not ok
 * @param {boolean} [options.allowMixedEngines]
 * @param {AbortSignal} [options.signal]   as stop()
 * @param {string[]} [options.argv]        recorded in run.json (the command line that asked for this matrix)
 * @returns {RunTracker}
 */
export function run(configOrFile, options = {}) {
  const tracker = new EventEmitter();
  const controller = new AbortController();
  options.signal?.addEventListener('abort', () => controller.abort(), { once: true });
  const state = { preparing: true, connected: [] };
  // Started after the caller has attached its listeners (the rest of its synchronous code runs first).
  const outcome = Promise.resolve().then(() =>
    runMatrices(configOrFile, options, { tracker, signal: controller.signal, state }),
  );
  // defineProperties, not Object.assign: `preparing` must stay a getter, read when asked.
  return Object.defineProperties(
    tracker,
    Object.getOwnPropertyDescriptors({
      then: outcome.then.bind(outcome),
      catch: outcome.catch.bind(outcome),
      finally: outcome.finally.bind(outcome),
      /** Start no new run; stop the one in progress (it gets no row); the outcome then says stoppedBy 'abort'. */
      stop: () => controller.abort(),
      /** True until every engine is ready and the first run may start. */
      get preparing() {
        return state.preparing;
      },
      /**
       * Removes this process's containers on every engine reached so far (its Jobs, on Kubernetes): for leaving at once
       * (Ctrl-C while preparing, a second Ctrl-C). `wait`: until a cluster's Jobs are gone (Docker's removal is
       * forced and done when it resolves).
       */
      removeOwnContainers: async (options) => state.removeOwn?.(options),
    }),
  );
}

/**
 * The backend's session: the cluster of the config's `kubernetes:` (kubernetes/session.js), else the Docker engines
 * (docker/session.js). Loaded here, not at the top: plan() and config errors must not need either.
 */
async function openSession({ plans, config, engines, slots, options, tracker, state }) {
  if (config.kubernetes) {
    const { openKubernetesSession, removeOwnJobsOn } = await import('../kubernetes/session.js');
    state.removeOwn = (options) => removeOwnJobsOn(state.connected, options);
    return openKubernetesSession({ plans, config, events: tracker, connected: state.connected });
  }
  const { openDockerSession, removeOwnContainersOn } = await import('../docker/session.js');
  state.removeOwn = () => removeOwnContainersOn(state.connected);
  return openDockerSession({
    plans,
    config,
    engineNames: engines,
    slots,
    allowMixed: options.allowMixedEngines,
    events: tracker,
    connected: state.connected,
  });
}

/**
 * @typedef {EventEmitter & Promise<RunOutcome> & { stop(): void, preparing: boolean,
 *   removeOwnContainers(): Promise<unknown> }} RunTracker  events: 'plan' { plans, warnings, pending, seed }, then
 *   those of docker/session.js or kubernetes/session.js ('orphans', 'image-progress', 'preflight'), 'ready'
 *   { engines }, and those of run-experiments.js ('experiment-start', 'run-start', 'run-end', 'reports',
 *   'reports-failed', 'experiment-end', 'engine-lost')
 * @typedef {object} RunOutcome
 * @property {{ name: string, outDir: string, summary: object, results: object|null }[]} experiments  in the order
 *   they ran; results: what the folder's results.json holds (null when its reports could not be written)
 * @property {null|'abort'|'fail-fast'|'engine-lost'} stoppedBy  engine-lost: runs were left that no engine could take
 * @property {boolean} anyFailed
 * @property {Map<string, Error>} lostEngines
 * @property {number} seed
 */
async function runMatrices(configOrFile, options, { tracker, signal, state }) {
  const prepared = await preparePlan(configOrFile, options);
  const { config, plans, resumed, seed, engines, slots, warnings, pending } = prepared;
  tracker.emit('plan', { plans, warnings, pending, seed });
  const { prepareJobs, runExperiments } = await import('../run/run-experiments.js');
  const jobs = prepareJobs({ plans, out: options.out, resultsRoot: resolve('results'), resumed });
  // At once with the Docker steps: start-up to the first container is what every matrix and test pays.
  const projectRead = readProject(PROJECT_DIR);
  const session = await openSession({ plans, config, engines, slots, options, tracker, state });
  state.preparing = false;
  try {
    tracker.emit('ready', { engines: session.engines });
    const project = { ...(await projectRead), version: PACKAGE.version };
    const { engine, engines: described, images, lanes, kubernetes } = session;
    const context = {
      config,
      engine,
      engines: described,
      slots,
      images,
      project,
      argv: options.argv ?? [],
      seed,
      ...(kubernetes ? { kubernetes } : {}),
    };
    const outcome = await runExperiments({ jobs, lanes, context, signal, failFast: options.failFast, events: tracker });
    return {
      ...outcome,
      experiments: outcome.experiments.map(({ plan, outDir, summary, results }) => ({
        name: plan.experiment.name,
        outDir,
        summary,
        results,
      })),
      seed,
    };
  } finally {
    session.close();
  }
}
