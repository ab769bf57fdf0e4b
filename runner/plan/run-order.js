// The order runs go in. Repetitions are interleaved (every cell once per round) and each round is
// shuffled, so slow drift of a shared machine (thermal, a neighbour's load) spreads evenly over the
// cells instead of landing on the last ones. The shuffle comes from a recorded seed: the same seed
// and config give the same order, so a run can be repeated exactly and resumed.
import { shuffle } from 'simple-statistics';
import { createRandom } from '../stats/random.js';

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
