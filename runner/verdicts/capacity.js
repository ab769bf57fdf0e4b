// The capacity search (`slo:`): per cell — a CPU budget and a setting — the highest arrival rate whose p99 stays within
// the SLO, bracketed by the rates the runs tried. A pure function of the cell's runs so far: the search calls it after
// every round (rounds/capacity.js) and `--resume` replays it from runs.csv, with the same next rate at the same round.
//
// Each run is one open-loop rate and its p99. The p99 grows with the rate, so the capacity — the rate at which a run's
// p99 is at the SLO in the middle (its log's mean) — lies between the highest rate shown within the SLO and the lowest
// shown over it. "Shown" is a one-sided t test of the mean log p99 at that rate against log SLO, at α/2 each end (so
// both ends hold together at 1 − α), with the run-to-run spread pooled over the cell's rates that ran more than once
// (the spread of a log p99 is about the same at neighbouring rates; a rate run once borrows it). The search: double
// (or halve) the rate until the SLO is crossed, bisect on the log scale until the bracket is within `resolution`,
// then repeat each end until it is shown, up to `cap` runs; docs/http.md shows the answer, scripts/bench-capacity.js
// how often the bracket holds the capacity.
import { quantileT } from '../stats/t-interval.js';

export const CAPACITY_DEFAULTS = Object.freeze({ resolution: 0.2, alpha: 0.05, cap: 12 });
// The spending of α over a rate's repeated looks (judgeRate), chosen by simulation.
export const LOOK_POWER = 0.75;

/** A rate as the search asks for it: 3 significant digits, so that a rate asked again is the same number. */
export function roundRate(rate) {
  return Number(rate.toPrecision(3));
}

/**
 * @param {{ rate: number, p99: number, counted?: boolean }[]} runs  the cell's runs so far: each one's arrival rate and
 *   p99 (ms); `counted: false` marks a run whose load generator could not hold the rate for want of connections (the
 *   server held them all: a point over the SLO for the search's direction, in no interval)
 * @param {{ sloMs: number, startRate: number, resolution?: number, cap?: number, alpha?: number }} options
 *   startRate: the first rate (the grid goes through it); resolution: the widest bracket that settles (high/low at
 *   most 1 + resolution); cap: the most runs of the cell
 * @param {object[][]} [others]  the runs of the experiment's other cells: their spread is pooled with this one's
 * @returns {CapacityJudgement}
 * @typedef {{ status: 'settled'|'open', low: number|null, high: number|null, lowPoint: number|null,
 *   highPoint: number|null, next: number|null, stop: null|'settled'|'cap'|'floor', runs: number,
 *   rates: { rate: number, n: number, p99: number, state: 'within'|'over'|'unclear' }[], sd: number|null,
 *   df: number }} CapacityJudgement
 *   low/high: the bracket shown at 1 − α (null where not shown); lowPoint/highPoint: the bracket by the estimates;
 *   next: the rate the next round runs (null when done); rates: each rate tried, its runs, its p99 (the geometric mean
 *   over its runs) and what is shown of it
 */
export function judgeCapacity(
  runs,
  {
    sloMs,
    startRate,
    resolution = CAPACITY_DEFAULTS.resolution,
    cap = CAPACITY_DEFAULTS.cap,
    alpha = CAPACITY_DEFAULTS.alpha,
  },
  others = [],
) {
  const limit = Math.log(sloMs);
  const grid = createGrid(startRate, resolution);
  const rates = groupByRate(runs, grid);
  const { sd, df } = poolSpread([rates, ...others.map((other) => groupByRate(other, grid))]);
  const judged = rates.map((entry) => ({ ...entry, ...judgeRate(entry, { limit, sd, df, alpha }) }));
  const brackets = findBrackets(judged, limit);
  const { shownWithin, shownOver } = brackets;
  // Two grid steps make the resolution (3 significant digits may round a hair past it).
  const settled = Boolean(shownWithin && shownOver) && shownOver.step - shownWithin.step <= 2;
  const capped = runs.length >= cap;
  const next = settled || capped ? null : chooseNextStep(judged, { grid, ...brackets });
  return {
    status: settled ? 'settled' : 'open',
    low: shownWithin?.rate ?? null,
    high: shownOver?.rate ?? null,
    lowPoint: brackets.lowPoint?.rate ?? null,
    highPoint: brackets.highPoint?.rate ?? null,
    next: next === null ? null : grid.rateAt(next),
    stop: describeStop({ settled, capped, next }),
    runs: runs.length,
    rates: judged.map(({ rate, n, mean, state }) => ({ rate, n, p99: Math.exp(mean), state })),
    sd,
    df,
  };
}

function describeStop({ settled, capped, next }) {
  if (settled) return 'settled';
  if (capped) return 'cap';
  return next === null ? 'floor' : null;
}

/**
 * The bracket by the estimates (the last rate whose mean log p99 is within the SLO below the first over it) and the
 * bracket shown (the same, by what each rate's test showed).
 */
function findBrackets(judged, limit) {
  const highPoint = judged.find((entry) => entry.mean > limit) ?? null;
  const lowPoint = judged.filter((entry) => entry.mean <= limit && (!highPoint || entry.step < highPoint.step)).at(-1);
  const shownOver = judged.find((entry) => entry.state === 'over') ?? null;
  const shownWithin = judged
    .filter((entry) => entry.state === 'within' && (!shownOver || entry.step < shownOver.step))
    .at(-1);
  return { lowPoint: lowPoint ?? null, highPoint, shownWithin: shownWithin ?? null, shownOver };
}

/**
 * The rates the search may try: a geometric grid through the start rate, two steps to the resolution, so that
 * a rate asked again is the same number and its runs pool.
 */
export function createGrid(startRate, resolution) {
  const ratio = Math.sqrt(1 + resolution);
  return {
    ratio,
    rateAt: (step) => roundRate(startRate * ratio ** step),
    stepOf: (rate) => Math.round(Math.log(rate / startRate) / Math.log(ratio)),
    // About a doubling, in steps.
    doubling: Math.max(1, Math.round(Math.LN2 / Math.log(ratio))),
  };
}

function groupByRate(runs, grid) {
  const byStep = new Map();
  for (const run of runs) {
    const step = grid.stepOf(run.rate);
    if (!byStep.has(step)) byStep.set(step, []);
    byStep.get(step).push({ y: Math.log(run.p99), counted: run.counted !== false });
  }
  return [...byStep.entries()]
    .map(([step, values]) => {
      const counted = values.filter((value) => value.counted).map((value) => value.y);
      // A run that could not hold its rate is over the SLO by as much as it could tell: no smaller a p99 than it saw.
      const all = counted.length > 0 ? counted : values.map((value) => value.y);
      const mean = all.reduce((sum, y) => sum + y, 0) / all.length;
      return { step, rate: grid.rateAt(step), n: counted.length, values: counted, mean };
    })
    .sort((a, b) => a.step - b.step);
}

// The run-to-run spread of log p99 within a rate, pooled over the rates that ran more than once, of every cell given.
function poolSpread(cells) {
  let squares = 0;
  let df = 0;
  for (const { values } of cells.flat()) {
    if (values.length < 2) continue;
    const mean = values.reduce((sum, y) => sum + y, 0) / values.length;
    squares += values.reduce((sum, y) => sum + (y - mean) ** 2, 0);
    df += values.length - 1;
  }
  return { sd: df > 0 ? Math.sqrt(squares / df) : null, df };
}

/**
 * Shown within (over) the SLO: the mean log p99 of the rate's counted runs below (above) log SLO by more than
 * t · sd / √n, one-sided at (α/2) / (n(n + 1))^0.75 at its n-th run. A rate is looked at again after each of its runs,
 * and looking again and again at a rate that sits exactly at the SLO would show it on one side sooner or later: this
 * level keeps the chance of that, over every look up to the cap, under α/2 (scripts/bench-capacity.js simulates it:
 * at most 2.44% for caps of 8 to 16 and any pooled spread; α/2 at every look would be 9–12%). `z`: how many standard
 * errors its mean lies from the SLO (positive: within), for choosing which end to repeat.
 */
export function judgeRate({ n, values }, { limit, sd, df, alpha }) {
  if (n === 0 || sd === null) return { state: 'unclear', z: null };
  const counted = values.reduce((sum, y) => sum + y, 0) / n;
  const z = (limit - counted) / (sd / Math.sqrt(n));
  const t = quantileT(alpha / (n * (n + 1)) ** LOOK_POWER, df);
  return { state: z > t ? 'within' : -z > t ? 'over' : 'unclear', z };
}

/**
 * The next grid step: double or halve until the SLO is crossed, bisect until the estimates cross between neighbours,
 * then run the end of the answer's bracket not yet shown (the one with fewer runs first). An end sitting so near the
 * SLO that it is not likely to be shown (within one standard error, after two runs) gives way to the step beyond it:
 * the bracket may span two steps.
 * @returns {number|null}  null: nothing left that could narrow it
 */
function chooseNextStep(judged, { grid, lowPoint, highPoint, shownWithin, shownOver }) {
  // No run counted yet (every one disturbed, or its generator behind): the start rate again.
  if (!lowPoint && !highPoint) return 0;
  if (!highPoint) return lowPoint.step + grid.doubling;
  if (!lowPoint) return highPoint.step - grid.doubling;
  if (highPoint.step - lowPoint.step > 1) return Math.floor((lowPoint.step + highPoint.step) / 2);
  const at = (step) => judged.find((entry) => entry.step === step) ?? { step, n: 0, state: 'unclear', z: null };
  const hopeless = (entry, sign) => entry.n >= 2 && entry.z !== null && sign * entry.z < 1;
  const lowTarget =
    shownWithin && shownWithin.step >= highPoint.step - 2
      ? shownWithin
      : hopeless(lowPoint, 1)
        ? at(lowPoint.step - 1)
        : lowPoint;
  const highTarget =
    shownOver && shownOver.step <= lowPoint.step + 2
      ? shownOver
      : hopeless(highPoint, -1)
        ? at(highPoint.step + 1)
        : highPoint;
  const unshown = [
    lowTarget.state === 'within' ? null : lowTarget,
    highTarget.state === 'over' ? null : highTarget,
  ].filter(Boolean);
  if (unshown.length === 0) return null;
  return unshown.reduce((fewest, entry) => (entry.n < fewest.n ? entry : fewest)).step;
}
