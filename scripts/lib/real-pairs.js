// A check on the simulation that needs no model: every method on the real folders themselves, for every two
// cells of a folder with enough runs (paired by their `repetition`), and how wide its interval is there.
import { median } from '../../runner/stats/statistics.js';
import { compareSamples } from '../../runner/stats/compare-samples.js';
import { primaryMetrics } from '../../runner/domain/metrics.js';
import { MIN_RUNS_PER_CELL } from './noise-model.js';

/**
 * @param {{ runs: object[] }[]} folders  readResults(...) of each folder of a profile
 * @param {{ method: string, paired: boolean }[]} variants
 * @returns {{ pairs: number,
 *   widths: Array<{ method: string, paired: boolean, width: number|null, intervals: number }> }}  width = median
 *   half-width (a pair without an interval counts as infinitely wide); intervals = share with one
 */
export function measureRealPairs(folders, variants) {
  const pairs = folders.flatMap(({ runs }) => {
    const measured = runs.filter(
      (run) =>
        run.status === 'ok' &&
        run.warmup !== true &&
        run.wall_ms > 0 &&
        primaryMetrics(run.workload)[0].column === 'wall_ms',
    );
    const cells = [...groupCells(measured).values()].filter((cell) => cell.length >= MIN_RUNS_PER_CELL);
    return cells.flatMap((a, i) => cells.slice(i + 1).map((b) => ({ a, b })));
  });
  const widths = variants.map(({ method, paired }) => {
    const each = pairs
      .map(({ a, b }) =>
        compareSamples(
          a.map((run) => run.wall_ms),
          b.map((run) => run.wall_ms),
          {
            method,
            paired,
            rounds: { a: a.map((run) => run.repetition), b: b.map((run) => run.repetition) },
          },
        ),
      )
      .map((c) => (c.ci_low === null ? Infinity : Math.sqrt(c.ci_high / c.ci_low) - 1));
    return {
      method,
      paired,
      width: each.length ? median(each) : null,
      intervals: each.filter(Number.isFinite).length / Math.max(1, each.length),
    };
  });
  return { pairs: pairs.length, widths };
}

function groupCells(runs) {
  const cells = new Map();
  for (const run of runs) {
    if (!cells.has(run.cell)) cells.set(run.cell, []);
    cells.get(run.cell).push(run);
  }
  return cells;
}
