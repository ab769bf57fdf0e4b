// run() (runner/api/run.js) over the fake executor: the same tracker (an event emitter and a promise of the
// outcome) from the same plan, with canned results instead of Docker, so the command line's printing of a whole
// matrix is tested in milliseconds. Only the Docker session is left out.
import { EventEmitter } from 'node:events';
import { resolve } from 'node:path';
import { preparePlan } from '../../runner/api/plan.js';
import { prepareJobs, runExperiments } from '../../runner/run/run-experiments.js';
import { createFakeExecutor, FAKE_CONTEXT } from '../../runner/backend/fake.js';
import { createLane } from '../../runner/backend/contract.js';

/** A stand-in for run(configOrFile, options) whose runs `outcome(run)` decides (runner/backend/fake.js). */
export function createFakeRun(outcome) {
  return function fakeRun(configOrFile, options = {}) {
    const tracker = new EventEmitter();
    const promise = Promise.resolve().then(async () => {
      const { config, plans, resumed, seed, warnings, pending } = await preparePlan(configOrFile, options);
      tracker.emit('plan', { plans, warnings, pending, seed });
      const jobs = prepareJobs({ plans, out: options.out, resultsRoot: resolve('results'), resumed });
      const context = { ...FAKE_CONTEXT, config, argv: options.argv ?? [], seed };
      const result = await runExperiments({
        jobs,
        lanes: [createLane(createFakeExecutor(outcome))],
        context,
        events: tracker,
      });
      return {
        ...result,
        experiments: result.experiments.map(({ plan, outDir, summary, results }) => ({
          name: plan.experiment.name,
          outDir,
          summary,
          results,
        })),
        seed,
      };
    });
    return Object.assign(tracker, {
      then: promise.then.bind(promise),
      catch: promise.catch.bind(promise),
      finally: promise.finally.bind(promise),
      stop() {},
      preparing: false,
      removeOwnContainers: async () => [],
    });
  };
}
