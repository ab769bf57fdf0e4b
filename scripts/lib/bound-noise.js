// The noise the bound study of `npm run bench:stats` draws from, fitted to committed result folders with the same
// two-way fit the bound uses (runner/stats/mcb.js fitTwoWay: cell + round on log wall_ms). A profile keeps the shape
// it was fitted to: each run's own noise is resampled from the folder's standardised residuals (skew and one-sided
// tail included), each round's shift is a Gaussian AR(1) process with the fitted spread and lag-1 correlation (a
// drift from round to round, as the noisy folder shows), and one-sided spikes may be laid on top.
import { median } from '../../runner/stats/statistics.js';
import { primaryMetrics } from '../../runner/domain/metrics.js';
import { fitTwoWay } from '../../runner/stats/mcb.js';

/** The largest lag-1 correlation of round shifts a profile may take: beyond it a handful of rounds never mix. */
const MAX_PHI = 0.95;

/**
 * @param {string} name
 * @param {{ dir: string, runs: object[] }[]} folders  readResults(...) of each folder
 * @returns {object} { name, dirs, runs, cells, residuals: number[] (each run's own noise, log scale), sd, robustSd,
 *   skew, roundSd, phi, roundEffects: number[][] (per folder, in round order) }
 */
export function fitRoundNoise(name, folders) {
  const fits = folders.map(({ dir, runs }) => {
    const cells = collectCells(runs);
    return {
      dir,
      cells: cells.length,
      runs: cells.reduce((sum, cell) => sum + cell.values.length, 0),
      fit: fitTwoWay(cells),
    };
  });
  // A run's own noise: its residual over √M_oo, the share of a run's variance a residual keeps (the fit takes a
  // cell's level and a round's shift out of every run).
  const residuals = fits.flatMap(({ fit }) =>
    fit.residuals
      .filter(({ leverage }) => leverage > 1e-9)
      .map(({ residual, leverage }) => residual / Math.sqrt(leverage)),
  );
  const sd = Math.sqrt(residuals.reduce((sum, r) => sum + r * r, 0) / residuals.length);
  const robustSd = 1.4826 * median(residuals.map(Math.abs));
  const skew = residuals.reduce((sum, r) => sum + r ** 3, 0) / residuals.length / sd ** 3;
  // Round shifts: the fitted effects spread by the shift itself and by the noise of a round's mean (σ² / n_r);
  // the latter is taken out, and the lag-1 correlation is corrected for the same dilution.
  let observed = 0;
  let noise = 0;
  let lagged = 0;
  let count = 0;
  const roundEffects = fits.map(({ fit }) => {
    const ordered = [...fit.rounds].sort((u, v) => Number(u.round) - Number(v.round));
    const effects = ordered.map(({ effect }) => effect);
    effects.forEach((effect, r) => {
      observed += effect * effect;
      noise += (sd * sd) / ordered[r].size;
      if (r > 0) lagged += effect * effects[r - 1];
      count += 1;
    });
    return effects;
  });
  const dof = Math.max(1, count - fits.length);
  const observedVariance = observed / dof;
  const roundVariance = Math.max(0, observedVariance - noise / count);
  const lag1 = observed > 0 ? lagged / observed : 0;
  const phi = roundVariance > 0 ? Math.min(MAX_PHI, Math.max(0, (lag1 * observedVariance) / roundVariance)) : 0;
  return {
    name,
    dirs: fits.map(({ dir }) => dir),
    runs: fits.reduce((sum, { runs }) => sum + runs, 0),
    cells: fits.reduce((sum, { cells }) => sum + cells, 0),
    residuals,
    sd,
    robustSd,
    skew,
    roundSd: Math.sqrt(roundVariance),
    lag1,
    phi,
    roundEffects,
  };
}

/**
 * The budgets of a folder as truths: per workload and CPU budget (cpus, cpuset), each uv_threadpool_size's median
 * wall_ms → its gap to the budget's best on the log scale, with its cost (threads + processes: the pool's threads
 * and the process's main thread).
 */
export function readTruths({ runs }) {
  const budgets = new Map();
  for (const run of measuredRuns(runs)) {
    const key = `${run.workload} cpus=${run.cpus ?? ''}${run.cpuset ? ` cpuset=${run.cpuset}` : ''}`;
    if (!budgets.has(key)) budgets.set(key, new Map());
    const pools = budgets.get(key);
    const pool = run.uv_threadpool_size ?? 4;
    if (!pools.has(pool)) pools.set(pool, []);
    pools.get(pool).push(run.wall_ms);
  }
  return [...budgets].map(([name, pools]) => {
    const settings = [...pools]
      .map(([pool, values]) => ({ id: `pool ${pool}`, pool, cost: pool + 1, median: median(values) }))
      .sort((u, v) => u.cost - v.cost);
    const best = Math.min(...settings.map((setting) => setting.median));
    return {
      name,
      settings: settings.map(({ id, cost, median: m }) => ({ id, cost, gap: Math.log(m / best) })),
    };
  });
}

function measuredRuns(runs) {
  return runs.filter(
    (run) =>
      run.status === 'ok' &&
      run.warmup !== true &&
      run.disturbed !== true &&
      typeof run.wall_ms === 'number' &&
      run.wall_ms > 0 &&
      primaryMetrics(run.workload)[0].column === 'wall_ms',
  );
}

function collectCells(runs) {
  const cells = new Map();
  for (const run of measuredRuns(runs)) {
    if (!cells.has(run.cell)) cells.set(run.cell, { id: run.cell, values: [] });
    cells.get(run.cell).values.push({ round: run.repetition, value: run.wall_ms });
  }
  return [...cells.values()];
}
