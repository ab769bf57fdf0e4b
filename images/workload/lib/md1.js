// The M/D/1 queue: Poisson arrivals at rate λ, one server, a fixed service time D, first come first served. Its
// waiting time W has Erlang's distribution (1909): with ρ = λD < 1 and k = ⌊t / D⌋,
//
//   P(W ≤ t) = (1 − ρ) Σ_{j=0..k} (λ(jD − t))^j / j! · e^{−λ(jD − t)}
//            = (1 − ρ) e^{λt} Σ_{j=0..k} (−1)^j x_j^j e^{−jρ} / j!,   x_j = λt − jρ ≥ 0,
//
// and a response takes W + D. The sum alternates with terms as large as e^{λt}, so in floating point it loses all its
// digits past λt ≈ 35 (the p99.9 of ρ = 0.9). It is summed here in exact fixed-point arithmetic (BigInt), with enough
// bits for the cancellation, from the inputs as the binary numbers they are. test/unit/images/lib/md1.test.js pins it
// against mpmath at 60 digits and a simulation (scripts/md1-reference.py). The http workload's model uses it for an
// open loop's percentiles, and `npm run bench:latency` puts it beside what the lab measures.

const LOG2_E = Math.LOG2E;

/** P(W ≤ t) of the M/D/1 queue. @param {{ rate: number, serviceMs: number }} queue  λ per ms and D in ms */
export function waitingCdf(tMs, { rate, serviceMs }) {
  const rho = rate * serviceMs;
  checkStable(rho);
  if (tMs < 0) return 0;
  const lambdaT = rate * tMs;
  const k = Math.floor(tMs / serviceMs);
  // Terms reach e^{λt} and the sum is about e^{−λt}: 2 λt log2(e) bits cancel, and 64 more are kept.
  const bits = BigInt(Math.ceil(2 * lambdaT * LOG2_E) + 64 + Math.ceil(Math.log2(k + 2)));
  const one = 1n << bits;
  const fixed = (x) => toFixed(x, bits);
  const L = fixed(lambdaT);
  const r = fixed(rho);
  const decay = expNegative(r, bits);
  let sum = 0n;
  let damping = one; // e^{−jρ}
  let factorial = 1n;
  for (let j = 0; j <= k; j++) {
    if (j > 0) {
      damping = (damping * decay) >> bits;
      factorial *= BigInt(j);
    }
    const x = L - BigInt(j) * r;
    if (x < 0n) break;
    const term = ((power(x, j, bits) * damping) / factorial) >> bits;
    sum += j % 2 === 0 ? term : -term;
  }
  const value = (1 - rho) * Math.exp(lambdaT) * fromFixed(sum, bits);
  return Math.min(1, Math.max(0, value));
}

/**
 * The response time at quantile p (0 < p < 1), ms: the smallest t with P(response ≤ t) ≥ p, to 1e-9 of D.
 * @param {{ rate: number, serviceMs: number }} queue  λ per ms, D in ms
 */
export function responseQuantile(p, queue) {
  const { serviceMs } = queue;
  if (!(p > 0 && p < 1)) throw new RangeError(`expected a quantile between 0 and 1, got ${p}`);
  checkStable(queue.rate * serviceMs);
  // The atom at W = 0: a share 1 − ρ waits nothing.
  if (waitingCdf(0, queue) >= p) return serviceMs;
  let high = serviceMs;
  while (waitingCdf(high, queue) < p) high *= 2;
  let low = 0;
  while (high - low > serviceMs * 1e-9) {
    const middle = (low + high) / 2;
    if (waitingCdf(middle, queue) >= p) high = middle;
    else low = middle;
  }
  return high + serviceMs;
}

/** The mean response time (Pollaczek–Khinchine): D + ρD / (2(1 − ρ)). */
export function responseMean({ rate, serviceMs }) {
  const rho = rate * serviceMs;
  checkStable(rho);
  return serviceMs + (rho * serviceMs) / (2 * (1 - rho));
}

function checkStable(rho) {
  if (!(rho >= 0 && rho < 1))
    throw new RangeError(`the M/D/1 queue has no steady state at utilisation ${rho} (it needs 0 ≤ ρ < 1)`);
}

// A double as fixed point with `bits` fraction bits, exactly (a double is a binary fraction of at most 53 bits).
function toFixed(x, bits) {
  if (x === 0) return 0n;
  const exponent = Math.floor(Math.log2(x)) - 52;
  const mantissa = BigInt(Math.round(x / 2 ** exponent));
  const shift = bits + BigInt(exponent);
  return shift >= 0n ? mantissa << shift : mantissa >> -shift;
}

function fromFixed(value, bits) {
  // Keep the top 64 bits, so the conversion is exact to a double's precision however large `bits` is.
  const negative = value < 0n;
  let magnitude = negative ? -value : value;
  let scale = -Number(bits);
  const excess = magnitude.toString(2).length - 64;
  if (excess > 0) {
    magnitude >>= BigInt(excess);
    scale += excess;
  }
  const result = Number(magnitude) * 2 ** scale;
  return negative ? -result : result;
}

// x^j in fixed point, by squaring.
function power(x, j, bits) {
  let result = 1n << bits;
  let base = x;
  let n = j;
  while (n > 0) {
    if (n & 1) result = (result * base) >> bits;
    base = (base * base) >> bits;
    n >>= 1;
  }
  return result;
}

// e^{−r} for 0 ≤ r < 1 in fixed point: its Taylor series, summed until the terms vanish.
function expNegative(r, bits) {
  let sum = 1n << bits;
  let term = 1n << bits;
  for (let n = 1n; term !== 0n; n++) {
    term = (term * r) / (n << bits);
    sum += n % 2n === 1n ? -term : term;
  }
  return sum;
}
