// The noise the bound study of `npm run bench:stats` draws from, fitted to committed result folders with the same
// two-way fit the bound uses (runner/stats/mcb.js fitTwoWay: cell + round on log wall_ms). A profile keeps the shape
// it was fitted to: each run's own noise is resampled from the folder's standardised residuals (skew and one-sided
// tail included), each round's shift is a Gaussian AR(1) process with the fitted spread and lag-1 correlation (a
// drift from round to round), and runs next to each other in a round share part of their noise (the fitted
// correlation of adjacent runs). The truths are a reference pooled from several folders of the same file.
import { median } from '../../runner/stats/statistics.js';
import { primaryMetrics } from '../../runner/domain/metrics.js';
import { compareWithBest, fitTwoWay } from '../../runner/stats/mcb.js';

/** The largest lag-1 correlation of round shifts a profile may take: beyond it a handful of rounds never mix. */
const MAX_PHI = 0.95;

/**
 * @param {string} name
 * @param {{ dir: string, runs: object[] }[]} folders  readResults(...) of each folder
 * @returns {object} { name, dirs, runs, cells, residuals: number[] (each run's own noise, log scale), sd, robustSd,
 *   skew, roundSd, phi, adjacent (the correlation of two runs next to each other in a round), roundEffects:
 *   number[][] (per folder, in round order) }
 */
export function fitRoundNoise(name, folders) {
  const fits = folders.map(({ dir, runs }) => {
    const cells = collectCells(runs);
    return {
      dir,
      cells: cells.length,
      runs: cells.reduce((sum, cell) => sum + cell.values.length, 0),
      fit: fitTwoWay(cells),
      startedAt: new Map(cells.flatMap((cell) => cell.values.map(({ round, at }) => [`${cell.id} ${round}`, at]))),
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
    adjacent: fitAdjacent(fits),
    roundEffects,
  };
}

/**
 * The correlation of two runs next to each other in a round (ordered by started_at), over the standardised residuals
 * of every round: the part of a run's noise it shares with the run before it. A round's residuals sum to about 0,
 * which pulls their correlation down by about 1/(n_r − 1); that is added back. 0 when there is nothing to read.
 */
function fitAdjacent(fits) {
  let products = 0;
  let squares = 0;
  let pairs = 0;
  let values = 0;
  let bias = 0;
  for (const { fit, startedAt } of fits) {
    const rounds = new Map();
    for (const { id, round, residual, leverage } of fit.residuals) {
      const at = startedAt.get(`${id} ${round}`);
      if (!(leverage > 1e-9) || !Number.isFinite(at)) continue;
      if (!rounds.has(round)) rounds.set(round, []);
      rounds.get(round).push({ at, z: residual / Math.sqrt(leverage) });
    }
    for (const list of rounds.values()) {
      list.sort((u, v) => u.at - v.at);
      list.forEach(({ z }, i) => {
        squares += z * z;
        values += 1;
        if (i > 0) {
          products += z * list[i - 1].z;
          pairs += 1;
          bias += 1 / Math.max(1, list.length - 1);
        }
      });
    }
  }
  if (pairs === 0 || squares === 0) return 0;
  return Math.max(0, Math.min(0.9, products / pairs / (squares / values) + bias / pairs));
}

/**
 * The truths of a file's budgets, pooled from several folders of it: per workload and CPU budget (cpus, cpuset), each
 * uv_threadpool_size's level from the two-way fit over every folder's runs, a block being one round of one folder
 * (a folder's own shift and its rounds' cancel), as a gap to the budget's best on the log scale. Cheapest first, with
 * its cost (threads + processes: the pool's threads and the process's main thread).
 * @param {{ dir: string, runs: object[] }[]} folders
 * @param {{ against?: 'best'|'first' }} [options]  the gaps to the budget's best (default) or to its first setting
 * @returns {{ name: string, workload: string, cpus: number|null, settings: { id: string, pool: number, cost: number,
 *   gap: number, se: number, memory: number|null }[] }[]}
 */
export function readReferenceTruths(folders, { against = 'best' } = {}) {
  const budgets = new Map();
  folders.forEach(({ runs }, f) => {
    for (const run of measuredRuns(runs)) {
      const key = `${run.workload} cpus=${run.cpus ?? ''}${run.cpuset ? ` cpuset=${run.cpuset}` : ''}`;
      if (!budgets.has(key)) budgets.set(key, { workload: run.workload, cpus: run.cpus ?? null, pools: new Map() });
      const { pools } = budgets.get(key);
      const pool = run.uv_threadpool_size ?? 4;
      if (!pools.has(pool)) pools.set(pool, []);
      pools.get(pool).push({ round: `${f}:${run.repetition}`, value: run.wall_ms, memory: run.peak_rss_mb });
    }
  });
  return [...budgets]
    .sort(([u], [v]) => u.localeCompare(v))
    .map(([name, { workload, cpus, pools }]) => {
      const settings = [...pools]
        .sort(([u], [v]) => u - v)
        .map(([pool, values]) => ({ id: `pool ${pool}`, pool, values }));
      const compared = compareWithBest(settings, { method: 'pooled' }).settings;
      const levels = compared.map(({ estimate }) => estimate);
      const base = against === 'first' ? levels[0] : Math.min(...levels);
      return {
        name,
        workload,
        cpus,
        settings: settings.map(({ id, pool, values }, i) => ({
          id,
          pool,
          cost: pool + 1,
          gap: levels[i] - base,
          // Its median peak memory: what the advice's cost order reads after the processes.
          memory: median(values.map((v) => v.memory).filter(Number.isFinite)) ?? null,
          // The standard error of the gap to the first setting (the pair's, from the pooled fit).
          se: i === 0 ? 0 : (compared[i].pairs.find((pair) => pair.id === settings[0].id)?.SE ?? Infinity),
        })),
      };
    });
}

// The runs a bound reads, each by its workload's primary metric (wall_ms; requests_per_sec for http): ok, measured,
// not disturbed, with a positive value.
function measuredRuns(runs) {
  return runs.filter(
    (run) =>
      run.status === 'ok' &&
      run.warmup !== true &&
      run.disturbed !== true &&
      run.loader_behind !== true &&
      typeof run[primaryColumn(run)] === 'number' &&
      run[primaryColumn(run)] > 0,
  );
}

function primaryColumn(run) {
  return primaryMetrics(run.workload)[0].column;
}

function collectCells(runs) {
  const cells = new Map();
  for (const run of measuredRuns(runs)) {
    if (!cells.has(run.cell)) cells.set(run.cell, { id: run.cell, values: [] });
    cells
      .get(run.cell)
      .values.push({ round: run.repetition, value: run[primaryColumn(run)], at: Date.parse(run.started_at) });
  }
  return [...cells.values()];
}

/**
 * How much a budget's gaps move from one invocation to the next, beyond the noise of each: per folder the two-way
 * fit's gap of every setting to the budget's first, then per setting the spread of those gaps over the folders. The
 * noise of each folder's estimate (its pair SEs) is taken out; what stays is the setting × invocation interaction, a
 * change of the truth itself that no bound on one invocation's runs can see.
 * @param {{ dir: string, runs: object[] }[]} folders  several invocations of one file on one host
 * @returns {{ observedSd: number, noiseSd: number, interactionSd: number, widest: { budget: string, setting: string,
 *   gaps: number[] } }}  log scale; widest: the setting whose gaps spread most, one per folder
 */
export function measureInvocationSpread(folders) {
  const perFolder = folders.map(({ runs }) => readReferenceTruthsWithErrors([{ runs }]));
  let observed = 0;
  let noise = 0;
  let count = 0;
  let widest = null;
  for (const { name, settings } of perFolder[0]) {
    for (const { id } of settings.slice(1)) {
      const reads = perFolder.map((budgets) => budgets.find((b) => b.name === name)?.settings.find((s) => s.id === id));
      if (reads.some((read) => !read || !Number.isFinite(read.se))) continue;
      const mean = reads.reduce((sum, read) => sum + read.gap, 0) / reads.length;
      const spread = reads.reduce((sum, read) => sum + (read.gap - mean) ** 2, 0) / (reads.length - 1);
      observed += spread;
      noise += reads.reduce((sum, read) => sum + read.se ** 2, 0) / reads.length;
      count += 1;
      const range = Math.max(...reads.map((r) => r.gap)) - Math.min(...reads.map((r) => r.gap));
      if (!widest || range > widest.range) widest = { budget: name, setting: id, range, gaps: reads.map((r) => r.gap) };
    }
  }
  const observedSd = Math.sqrt(observed / count);
  const noiseSd = Math.sqrt(noise / count);
  return {
    observedSd,
    noiseSd,
    interactionSd: Math.sqrt(Math.max(0, observedSd ** 2 - noiseSd ** 2)),
    widest: { budget: widest.budget, setting: widest.setting, gaps: widest.gaps },
  };
}

// Per budget each setting's gap to the budget's first setting (pool 1) in one folder, with its standard error.
function readReferenceTruthsWithErrors(folders) {
  return readReferenceTruths(folders, { against: 'first' });
}
