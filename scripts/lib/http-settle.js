// The figures of `npm run bench:http` (issue #37 item 6): what makes an HTTP comparison settle in fewer runs. From one
// folder's runs.csv and tasks.csv (the measured period second by second), each way of reading a run gives each run one
// value; the spread of those values between runs of a cell, pooled over the cells, is what a bound pays for, and the
// runs a setting would need for a bound at `within` follow from it. Pure: the figures of folders already measured.
import { mean, sampleStandardDeviation } from 'simple-statistics';
import { fitWithinSlope } from '../../runner/stats/covariate.js';
import { quantileMcb } from '../../runner/stats/mcb.js';

/** The seconds of a period left out as its warm-up in the "steady part" readings. */
export const STEADY_FROM_SECOND = 3;

/**
 * Each way of reading a run of an http cell, as a function of the run and its seconds (tasks.csv rows, in order) to
 * one value on which higher is better, or null when the run cannot give it.
 */
export const READINGS = {
  'requests_per_sec (the period)': (run) => run.requests_per_sec,
  [`steady seconds (from second ${STEADY_FROM_SECOND + 1})`]: (run, seconds) =>
    meanOf(seconds.slice(STEADY_FROM_SECOND).map((second) => second.requests)),
  'first 5 steady seconds': (run, seconds) => windowOf(seconds, 5),
  'first 10 steady seconds': (run, seconds) => windowOf(seconds, 10),
  'responses per CPU second (1 / CPU time per response)': (run) =>
    run.requests_served > 0 && run.cpu_total_ms > 0 ? (1000 * run.requests_served) / run.cpu_total_ms : null,
};

function windowOf(seconds, length) {
  const steady = seconds.slice(STEADY_FROM_SECOND, STEADY_FROM_SECOND + length);
  return steady.length === length ? meanOf(steady.map((second) => second.requests)) : null;
}

function meanOf(values) {
  const finite = values.filter(Number.isFinite);
  return finite.length > 0 ? mean(finite) : null;
}

/**
 * The spread of log values between runs of a cell, pooled over the cells (one-way), and with the rounds taken out too
 * (two-way: setting + round, "rounds as blocks"): the SD a bound pays for either way, with its degrees of freedom.
 * @param {{ cell: string, round: number, value: number }[]} points
 */
export function measureSpread(points) {
  const logs = points.filter((point) => point.value > 0).map((point) => ({ ...point, y: Math.log(point.value) }));
  const byCell = groupBy(logs, (point) => point.cell);
  let squares = 0;
  let df = 0;
  for (const values of byCell.values()) {
    if (values.length < 2) continue;
    const centre = mean(values.map((point) => point.y));
    squares += values.reduce((sum, point) => sum + (point.y - centre) ** 2, 0);
    df += values.length - 1;
  }
  return {
    oneWay: df > 0 ? { sd: Math.sqrt(squares / df), df } : null,
    blocked: measureBlockedSpread(logs, byCell),
  };
}

// Residuals of y = cell + round (complete rounds only), by alternating means: the round effects a shared period
// puts on every setting of a round come off, as the bound's pairing by round takes them off.
function measureBlockedSpread(logs, byCell) {
  const cells = [...byCell.keys()];
  const rounds = [...groupBy(logs, (point) => point.round).entries()]
    .filter(([, values]) => cells.every((cell) => values.some((point) => point.cell === cell)))
    .map(([round]) => round);
  if (cells.length < 2 || rounds.length < 2) return null;
  const kept = logs.filter((point) => rounds.includes(point.round));
  const cellEffect = new Map(cells.map((cell) => [cell, 0]));
  const roundEffect = new Map(rounds.map((round) => [round, 0]));
  for (let pass = 0; pass < 50; pass++) {
    for (const cell of cells) {
      const own = kept.filter((point) => point.cell === cell);
      cellEffect.set(cell, mean(own.map((point) => point.y - roundEffect.get(point.round))));
    }
    for (const round of rounds) {
      const own = kept.filter((point) => point.round === round);
      roundEffect.set(round, mean(own.map((point) => point.y - cellEffect.get(point.cell))));
    }
  }
  const residuals = kept.map((point) => point.y - cellEffect.get(point.cell) - roundEffect.get(point.round));
  const df = kept.length - cells.length - rounds.length + 1;
  return df > 0 ? { sd: Math.sqrt(residuals.reduce((sum, r) => sum + r * r, 0) / df), df } : null;
}

/**
 * Runs a setting needs for the bound's half-width to come under ln(1 + within) when the settings are equal: n with
 * q · sd · √(2 / n) ≤ δ, q the one-sided multiple-comparison quantile for `settings` at 95% with `df` (stats/mcb.js).
 */
export function countRunsNeeded({ sd, df }, { settings, within }) {
  const q = quantileMcb(0.05, settings, df);
  const delta = Math.log1p(within);
  return Math.max(2, Math.ceil(2 * ((q * sd) / delta) ** 2));
}

/**
 * The per-second reading's own promise: the spread of log requests between the steady seconds of one run, scaled to
 * the run's mean (sd / √seconds), against the spread between runs. Above 1, runs differ by more than their seconds
 * say: counting seconds as samples would claim a precision the runs do not have.
 */
export function compareSecondsToRuns(runs, secondsOf) {
  const within = [];
  for (const run of runs) {
    const steady = secondsOf(run)
      .slice(STEADY_FROM_SECOND)
      .map((second) => second.requests)
      .filter((value) => value > 0)
      .map(Math.log);
    if (steady.length >= 3) within.push(sampleStandardDeviation(steady) / Math.sqrt(steady.length));
  }
  return within.length > 0 ? mean(within) : null;
}

/** CPU time per response as a covariate of the throughput: the within-cell fit of log rate on log CPU per response. */
export function fitCpuCovariate(runs) {
  const groups = [...groupBy(runs, (run) => run.cell).values()].map((own) => {
    const usable = own.filter((run) => run.requests_per_sec > 0 && run.requests_served > 0 && run.cpu_total_ms > 0);
    return {
      x: usable.map((run) => Math.log(run.cpu_total_ms / run.requests_served)),
      y: usable.map((run) => Math.log(run.requests_per_sec)),
    };
  });
  return fitWithinSlope(groups);
}

function groupBy(values, keyOf) {
  const groups = new Map();
  for (const value of values) {
    const key = keyOf(value);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(value);
  }
  return groups;
}
