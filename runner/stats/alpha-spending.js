// α spent over the looks of a sequential procedure (Lan & DeMets 1983): a race that reads a comparison after every
// round it gains may be wrong at any of those reads, so each look gets a share of α, and the chance of being wrong at
// any look is at most α. Two ways to share:
// - `union`: the shares add up to α (Bonferroni over the looks): valid whatever the looks' statistics have in common;
// - `exact`: each look's boundary is set so that a Gaussian random walk read at every n = from … cap crosses one with
//   the spending function's probability (Armitage, McPherson & Rowe 1969; Jennison & Turnbull 2000, ch. 19): the
//   reads of one comparison share most of their rounds, so each may spend about twice the union's share. A t
//   statistic takes the nominal level of its look (Jennison & Turnbull's significance-level approach).
// The spending function of the information t = n / cap sets how much each look gets. Pure arithmetic; the decision
// that uses it is runner/verdicts/choose-setting.js, the study that chose the design docs/statistics.md.
import jstatModule from 'jstat';

const { jStat } = jstatModule;

/**
 * - `bonferroni`: the same share at every look from `from` to `cap`;
 * - `pocock`: Lan–DeMets' Pocock-like α·ln(1 + (e − 1)·t): early looks get almost as much as late ones;
 * - `obrien-fleming`: Lan–DeMets' O'Brien–Fleming-like 2 − 2Φ(z₁₋α/₂ / √t): little early, most at the cap.
 */
export const SPENDING_SHAPES = ['bonferroni', 'pocock', 'obrien-fleming'];

/** How the shares account for the looks: see the top of this file. */
export const SPENDING_KINDS = ['union', 'exact'];

/**
 * The one-sided nominal level a look may use when its comparison stands on n rounds, for looks at n = from … cap;
 * 0 outside them (before `from`, after `cap`): no bound there. `union`: the spending function's increment since the
 * previous look (the first look: all it has spent by then); the levels add up to α. `exact`: the nominal level of the
 * look's boundary for a Gaussian random walk (cached: a race asks for the same few again and again).
 * @param {number} alpha  one comparison's α over all its looks
 * @param {number} n  rounds the comparison stands on
 * @param {{ from: number, cap: number, shape: string, kind?: string }} looks
 */
export function levelAtLook(alpha, n, { from, cap, shape, kind = 'union' }) {
  if (!(n >= from && n <= cap) || !Number.isInteger(n)) return 0;
  if (kind === 'exact') return exactLevels(alpha, from, cap, shape)[n - from];
  return spentBy(shape, alpha, n, { from, cap }) - (n === from ? 0 : spentBy(shape, alpha, n - 1, { from, cap }));
}

/** The α a spending function has spent by the look at n rounds (α at the cap). */
export function spentBy(shape, alpha, n, { from, cap }) {
  if (!SPENDING_SHAPES.includes(shape)) throw new RangeError(`spending shape ${JSON.stringify(shape)} is not known`);
  if (n >= cap) return alpha;
  if (n < from) return 0;
  if (shape === 'bonferroni') return (alpha * (n - from + 1)) / (cap - from + 1);
  const t = n / cap;
  if (shape === 'pocock') return alpha * Math.log(1 + (Math.E - 1) * t);
  return 2 - 2 * normalCdf(normalInv(1 - alpha / 2) / Math.sqrt(t));
}

const EXACT = new Map();

/**
 * The nominal one-sided level of each look n = from … cap such that S_n = the sum of n standard normals first crosses
 * the look's boundary b_n with probability spentBy(n) − spentBy(n − 1). The density of S_n on the paths not yet
 * stopped is carried on a grid from look to look (a step of h, trapezoid rule; S_from is N(0, from)), and each b_n
 * is found by bisection.
 */
export function exactLevels(alpha, from, cap, shape) {
  const key = `${alpha} ${from} ${cap} ${shape}`;
  const cached = EXACT.get(key);
  if (cached) return cached;
  const h = 0.05;
  const low = -8 * Math.sqrt(cap);
  let grid = [];
  let density = [];
  const levels = [];
  for (let n = from; n <= cap; n++) {
    const target = spentBy(shape, alpha, n, { from, cap }) - spentBy(shape, alpha, n - 1, { from, cap });
    // The chance of crossing b at this look among the paths still going.
    const crossing =
      n === from
        ? (b) => 1 - normalCdf(b / Math.sqrt(n))
        : (b) => integrate(grid, density, (y) => 1 - normalCdf(b - y));
    let [lo, hi] = [-10 * Math.sqrt(n), 20 * Math.sqrt(n)];
    for (let i = 0; i < 60 && hi - lo > 1e-9; i++) {
      const mid = (lo + hi) / 2;
      if (crossing(mid) > target) lo = mid;
      else hi = mid;
    }
    const b = (lo + hi) / 2;
    levels.push(1 - normalCdf(b / Math.sqrt(n)));
    const points = Math.max(2, Math.ceil((b - low) / h) + 1);
    const next = Array.from({ length: points }, (_, i) => low + ((b - low) * i) / (points - 1));
    const nextDensity =
      n === from
        ? next.map((x) => normalPdf(x / Math.sqrt(n)) / Math.sqrt(n))
        : next.map((x) => integrate(grid, density, (y) => normalPdf(x - y)));
    grid = next;
    density = nextDensity;
  }
  EXACT.set(key, levels);
  return levels;
}

function integrate(grid, density, weight) {
  let sum = 0;
  for (let i = 1; i < grid.length; i++) {
    sum += ((grid[i] - grid[i - 1]) * (density[i] * weight(grid[i]) + density[i - 1] * weight(grid[i - 1]))) / 2;
  }
  return sum;
}

function normalCdf(x) {
  return jStat.normal.cdf(x, 0, 1);
}

function normalInv(p) {
  return jStat.normal.inv(p, 0, 1);
}

function normalPdf(x) {
  return Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);
}
