// Which engine and slot (a "lane") each run is meant for. A cell's repetitions go to consecutive
// lanes, each new cell (in the seeded run order) starting one lane further than the one before, from a
// seeded first lane, so every lane gets its share; consecutive lanes alternate engines first, then slots: a cell
// with as many repetitions as there are engines is measured once on each, so no cell depends on one
// machine only. The same seed, config and lanes give the same plan. A lane that runs out of its own
// runs takes (steals) the next one meant for another lane, so the plan is a preference: where each
// run really went is recorded beside it (runs.csv `engine`, `slot_cpuset`; run.json placements).
import { randomFor } from '../plan/run-order.js';

/**
 * @typedef {{ id: string, engine: string, slot: { index: number } }} LaneRef
 * @param {LaneRef[]} lanes
 * @param {{ seed?: number, experimentName: string }} options
 * @returns {(run: { cell: string, runKey: string, values: object }) => string}  the lane id for a run; call in run
 *   order
 */
export function createLaneAssigner(lanes, { seed = 0, experimentName }) {
  const ordered = orderLanes(lanes);
  // Its own stream: adding lanes must not change the order of the runs (run-order.js).
  const random = randomFor(seed, `${experimentName}/lanes`);
  const start = Math.floor(random() * ordered.length);
  const cells = new Map();
  return (run) => {
    const candidates =
      run.values.engine === undefined ? ordered : ordered.filter((lane) => lane.engine === run.values.engine);
    if (candidates.length === 0) return undefined;
    let state = cells.get(run.cell);
    if (!state) {
      state = { offset: start + cells.size, count: 0 };
      cells.set(run.cell, state);
    }
    return candidates[(state.offset + state.count++) % candidates.length].id;
  };
}

/** e0s0, e1s0, e0s1, e1s1, …: neighbours differ in engine before they differ in slot. */
export function orderLanes(lanes) {
  return [...lanes].sort((a, b) => a.slot.index - b.slot.index || engineRank(lanes, a) - engineRank(lanes, b));
}

function engineRank(lanes, lane) {
  return [...new Set(lanes.map((item) => item.engine))].indexOf(lane.engine);
}
