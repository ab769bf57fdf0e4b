// The order runs go in. Repetitions are interleaved (every cell once per round), so slow drift of a shared machine
// (thermal, a neighbour's load) spreads evenly over the cells instead of landing on the last ones. Within a round
// the order is `round_order`'s:
// - `shuffled` (the default): every round freshly shuffled;
// - `abba`: the cells of a CPU budget back to back (the settings advice compares run close in time, where the host's
//   speed has moved least: on this host consecutive runs correlate at ≈ 0.6), and every other round the mirror of the
//   one before (A B C D, then D C B A), so over each pair of rounds a drift falls on every position alike.
// Both come from a recorded seed: the same seed and config give the same order, so a run can be repeated exactly and
// resumed. The `abba` order of a round is a pure function of the seed, the experiment and the round's number, so a
// later round (adaptive, re-runs) can ask for it with any subset of the cells (orderRoundCells).
import { shuffle } from 'simple-statistics';
import { createRandom } from '../stats/random.js';
import { listBudgetAxes } from '../cells/axes.js';

// Callers have always found the generator here.
export { createRandom };

/** One generator per experiment, so adding an experiment does not reorder the others. */
export function randomFor(seed, experimentName) {
  let hash = seed >>> 0;
  for (const char of experimentName) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return createRandom(hash);
}

export function newSeed() {
  return Math.floor(Math.random() * 2 ** 31);
}

/** `rounds` rounds, each holding every cell once in a freshly shuffled order. */
export function interleave(cells, rounds, random) {
  return Array.from({ length: rounds }, (_, round) =>
    shuffle(cells, random).map((cell) => ({ cell, round: round + 1 })),
  );
}

/**
 * `rounds` rounds in the `abba` order: each holds every cell once, a budget's cells adjacent, round 2k the mirror of
 * round 2k − 1.
 * @param {object[]} cells  the plan's cells ({ cell, values, workload })
 * @param {{ seed: number, experiment: string, budgetAxes: string[], warmup?: boolean }} how  warmup: warm-up rounds
 *   draw from a stream of their own, so adding warm-ups leaves the measured rounds' order as it was
 */
export function mirrorRounds(cells, rounds, how) {
  return Array.from({ length: rounds }, (_, index) =>
    orderMirrored(cells, index + 1, how).map((cell) => ({ cell, round: index + 1 })),
  );
}

/**
 * Round `round` (1-based) of the `abba` order, over `cells` (any subset of the plan's: a later round keeps the order
 * of the cells it runs). Pair k (rounds 2k − 1 and 2k) draws one base order — the budgets shuffled, each budget's
 * cells shuffled within it — from its own seeded stream; the odd round runs it forward, the even one backward.
 */
export function orderMirrored(cells, round, { seed, experiment, budgetAxes, warmup = false }) {
  const pair = Math.ceil(round / 2);
  const random = randomFor(seed, `${experiment}\u0000abba\u0000${warmup ? 'w' : ''}${pair}`);
  const budgets = groupByBudget(cells, budgetAxes);
  const base = shuffle(budgets, random).flatMap((budget) => shuffle(budget, random));
  return round % 2 === 1 ? base : base.reverse();
}

/**
 * Cells that share a CPU budget, each group in the cells' own order, groups in order of first appearance. The
 * budget is what advice compares settings within: the `recommend.per` axes (default cpus, cpuset, node, engine)
 * and the workload.
 */
export function groupByBudget(cells, budgetAxes) {
  const axes = [...budgetAxes.filter((axis) => axis !== 'workload'), 'workload'];
  const groups = new Map();
  for (const cell of cells) {
    const key = JSON.stringify(axes.map((axis) => cell.values?.[axis] ?? cell[axis] ?? null));
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(cell);
  }
  return [...groups.values()];
}

/**
 * The order of one later round (adaptive, re-runs, a race's) over the cells it runs, by the experiment's
 * `round_order`: `shuffled` shuffles them from the plan's stream (as it always has); `abba` keeps the order round
 * `round` has (orderMirrored), so a budget's cells stay adjacent and rounds keep mirroring.
 * @param {{ experiment: object, seed: number, random: () => number }} plan  one experiment's plan
 * @param {object[]} cells  the plan's cells this round runs (or objects with a `cell` of the plan's, e.g. RunSpecs)
 * @param {number} round  the round's number (1-based; the planned rounds are 1 … repetitions)
 */
export function orderRoundCells(plan, cells, round) {
  if ((plan.experiment.round_order ?? 'shuffled') !== 'abba') return shuffle(cells, plan.random);
  const order = orderMirrored(plan.cells, round, {
    seed: plan.seed,
    experiment: plan.experiment.name,
    budgetAxes: listBudgetAxes(plan.experiment.recommend),
  });
  const position = new Map(order.map((cell, index) => [cell.cell, index]));
  return [...cells].sort((a, b) => position.get(a.cell) - position.get(b.cell));
}
