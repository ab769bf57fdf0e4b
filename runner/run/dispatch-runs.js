// Runs on lanes (an engine's slot), at most one run per lane at a time. A free lane takes the first pending run meant
// for it (assign-lanes.js), else the first pending run it may take at all (one meant for a lane that is busy or gone; a
// cell whose `engine` is an axis stays on that engine). Pending runs keep the seeded order. A lane whose engine is lost
// (its work throws the backend contract's backendLost) is dropped with all lanes of that engine; its run in flight got
// no row and goes back to the front of the queue, for the others. Runs no live lane may take are returned as not run
// (--resume finishes them later).

import { isBackendLost } from '../backend/contract.js';

/**
 * @param {object} options
 * @param {object[]} options.runs                       in the order they should go
 * @param {{ id: string, engine: string }[]} options.lanes
 * @param {(run) => string|undefined} options.preferredLane
 * @param {(run, lane) => Promise<boolean>} options.work  false: hand out no further run (abort, fail-fast)
 * @param {(engine: string, error: Error) => void} [options.onEngineLost]
 * @returns {Promise<{ lost: Map<string, Error>, notRun: object[] }>}
 */
export function dispatchRuns({ runs, lanes, preferredLane, work, onEngineLost = () => {} }) {
  const preferred = new Map(runs.map((run) => [run, preferredLane(run)]));
  const pending = [...runs];
  const busy = new Set();
  const lost = new Map();
  let stopping = false;
  let failure;
  return new Promise((resolve, reject) => {
    const mayTake = (run, lane) => run.values.engine === undefined || run.values.engine === lane.engine;
    const pick = (lane) => {
      let index = pending.findIndex((run) => preferred.get(run) === lane.id);
      if (index < 0) index = pending.findIndex((run) => mayTake(run, lane));
      return index < 0 ? undefined : pending.splice(index, 1)[0];
    };
    const loseEngine = (engine, error) => {
      if (lost.has(engine)) return;
      lost.set(engine, error);
      onEngineLost(engine, error);
    };
    const start = (lane, run) => {
      busy.add(lane.id);
      Promise.resolve()
        .then(() => work(run, lane))
        .then(
          (goOn) => {
            if (goOn === false) stopping = true;
          },
          (error) => {
            if (isBackendLost(error)) {
              loseEngine(lane.engine, error);
              pending.unshift(run);
            } else {
              stopping = true;
              failure ??= error;
            }
          },
        )
        .finally(() => {
          busy.delete(lane.id);
          pump();
        });
    };
    const pump = () => {
      if (!stopping) {
        for (const lane of lanes) {
          if (busy.has(lane.id) || lost.has(lane.engine)) continue;
          const run = pick(lane);
          if (run) start(lane, run);
        }
      }
      if (busy.size > 0) return;
      if (failure) reject(failure);
      else resolve({ lost, notRun: pending });
    };
    pump();
  });
}
