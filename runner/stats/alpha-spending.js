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

/** The grid's step on the scale of S_n (a standard normal per round): the levels move by less than 1e-5 below it. */
const STEP = 0.05;

/**
 * The nominal one-sided level of each look n = from … cap such that S_n = the sum of n standard normals first crosses
 * the look's boundary b_n with probability spentBy(n) − spentBy(n − 1). The density of S_n on the paths not yet
 * stopped is carried on a lattice of step STEP, cut at the boundary (its value at b_n kept as an end point), from look
 * to look by the trapezoid rule; each b_n is found by bisection. The normal kernel on the lattice is one table, so a
 * look costs a few thousand exponentials, not millions (they are slow where tests run).
 */
export function exactLevels(alpha, from, cap, shape) {
  const key = `${alpha} ${from} ${cap} ${shape}`;
  const cached = EXACT.get(key);
  if (cached) return cached;
  const low = -8 * Math.sqrt(cap);
  const span = Math.ceil((30 * Math.sqrt(cap)) / STEP) + 2;
  const kernel = Float64Array.from({ length: span }, (_, k) => normalPdf(k * STEP));
  let carried = null;
  const levels = [];
  for (let n = from; n <= cap; n++) {
    const target = spentBy(shape, alpha, n, { from, cap }) - spentBy(shape, alpha, n - 1, { from, cap });
    const crossing =
      carried === null ? (b) => 1 - normalCdf(b / Math.sqrt(n)) : (b) => carried.integrate((y) => 1 - normalCdf(b - y));
    let [lo, hi] = [-10 * Math.sqrt(n), 20 * Math.sqrt(n)];
    for (let i = 0; i < 60 && hi - lo > 1e-9; i++) {
      const mid = (lo + hi) / 2;
      if (crossing(mid) > target) lo = mid;
      else hi = mid;
    }
    const b = (lo + hi) / 2;
    levels.push(1 - normalCdf(b / Math.sqrt(n)));
    if (n < cap) carried = carryDensity(carried, { n, b, low, kernel });
  }
  EXACT.set(key, levels);
  return levels;
}

/**
 * The density of S_n on the paths that have not crossed b, on the lattice low + i·STEP below b and at b itself:
 * S_from's normal density at the first look, else the previous density convolved with one round's normal.
 */
function carryDensity(previous, { n, b, low, kernel }) {
  const points = Math.max(1, Math.floor((b - low) / STEP) + 1);
  const values = new Float64Array(points);
  let end;
  if (previous === null) {
    const scale = Math.sqrt(n);
    for (let i = 0; i < points; i++) values[i] = normalPdf((low + i * STEP) / scale) / scale;
    end = normalPdf(b / scale) / scale;
  } else {
    const { weighted, endWeight, endAt } = previous;
    for (let i = 0; i < points; i++) {
      let sum = endWeight * normalPdf(low + i * STEP - endAt);
      // Every lattice point lies within `kernel` of every other (span covers the widest lattice).
      for (let j = 0; j < weighted.length; j++) sum += weighted[j] * kernel[Math.abs(i - j)];
      values[i] = sum;
    }
    end = previous.integrate((y) => normalPdf(b - y));
  }
  return densityOn(values, end, { low, b });
}

// Trapezoid weights of a density on the lattice below b and at b: the step between lattice points, the partial step
// from the last of them to b.
function densityOn(values, end, { low, b }) {
  const points = values.length;
  const last = b - (low + (points - 1) * STEP);
  const weighted = Float64Array.from(values, (value, i) => {
    const width = (i === 0 ? STEP / 2 : STEP) - (i === points - 1 ? STEP / 2 - last / 2 : 0);
    return value * (points === 1 ? last / 2 : width);
  });
  const endWeight = (end * last) / 2;
  return {
    weighted,
    endWeight,
    endAt: b,
    integrate(weight) {
      let sum = endWeight * weight(b);
      for (let i = 0; i < points; i++) sum += weighted[i] * weight(low + i * STEP);
      return sum;
    },
  };
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
