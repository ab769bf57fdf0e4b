// A seeded PRNG for everything that must come out the same twice: the run order (plan/run-order.js) and the
// bootstrap's resamples.

/** mulberry32: tiny, fast, and good enough to order runs and resample them; not for cryptography. */
export function createRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
