// `npm run bench:stats` spreads its simulations over the machine's cores: each task (one scenario, rule and
// number of runs, or one adaptive schedule) runs in a worker thread with its own seed, derived from the task, so
// the answer does not depend on which worker ran what or in which order.
import { availableParallelism } from 'node:os';
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import { createRandom, randomFor } from '../../runner/plan/run-order.js';
import { simulateCase } from './bound-simulation.js';
import { CLAIMS, simulateAdaptive, simulateFixedRuns, TRUE_RATIOS, trueLabels } from './stats-simulation.js';
import { summarizeVariant } from './stats-verdict.js';

/**
 * @param {object[]} tasks  { kind: 'fixed'|'adaptive', key: string, ... } (see runTask)
 * @param {(done: number, total: number, task: object, seconds: number) => void} onProgress
 * @returns {Promise<object[]>} the results in the order of the tasks
 */
export async function runTasks(tasks, shared, onProgress) {
  const results = new Array(tasks.length);
  let next = 0;
  let done = 0;
  const workerCount = Math.max(1, Math.min(availableParallelism(), tasks.length));
  await Promise.all(
    Array.from(
      { length: workerCount },
      () =>
        new Promise((resolve, reject) => {
          const worker = new Worker(new URL(import.meta.url));
          const feed = () => {
            if (next >= tasks.length) {
              worker.terminate().then(resolve, reject);
              return;
            }
            const index = next++;
            worker.postMessage({ index, task: tasks[index], shared });
          };
          worker.on('message', ({ index, result, seconds }) => {
            results[index] = result;
            done += 1;
            onProgress(done, tasks.length, tasks[index], seconds);
            feed();
          });
          worker.on('error', reject);
          feed();
        }),
    ),
  );
  return results;
}

/**
 * fixed: every variant on `trials` pairs of n runs → a summary per variant. adaptive: one variant from `start`
 * to `cap` runs → simulateAdaptive rows for every claim and ratio. bound: one profile, case and rule raced by the
 * runner's scheduler (a promise) → simulateCase's tallies.
 */
export function runTask(task, { trials, seed, retries }) {
  const { model } = task;
  const random = createRandom(randomFor(seed, task.key)());
  // The bound study seeds its noise from the task's profile and case (the same for every rule), not from the key.
  if (task.kind === 'bound') return simulateCase({ ...task, seed });
  if (task.kind === 'fixed') {
    return simulateFixedRuns(model, task.scenario, task.n, task.variants, {
      trials,
      random,
      detect: task.detect,
      retries,
    }).map((tally) => summarizeVariant(tally));
  }
  // Adaptive rounds serve claims only (steps get the planned runs).
  const cases = CLAIMS.filter((claim) => claim.key !== 'step').flatMap((claim) =>
    TRUE_RATIOS.filter((ratio) => trueLabels(claim, ratio)).map((ratio) => ({ claim, ratio })),
  );
  return simulateAdaptive(model, task.scenario, task.variant, cases, {
    start: task.start,
    cap: task.cap,
    trials: task.trials,
    random,
    detect: task.detect,
    retries,
  });
}

if (!isMainThread) {
  parentPort.on('message', async ({ index, task, shared }) => {
    const t0 = Date.now();
    const result = await runTask(task, shared);
    parentPort.postMessage({ index, result, seconds: (Date.now() - t0) / 1000 });
  });
}
