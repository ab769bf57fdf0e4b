// What an experiment gets for every key it leaves out.
import { DEFAULT_DISTURBED_ABOVE } from '../domain/interference.js';

export const EXPERIMENT_DEFAULTS = {
  description: '',
  // A matrix races toward its answer unless it says `search: grid` (docs/bench-race.md: the race settles as the grid
  // does, on about half its runs). Its start rounds are those of the bound rule docs/statistics.md chose
  // (DEFAULT_BOUND_RULE.n0, a unit test keeps them equal): after them the race gives more runs to what is still open.
  search: 'race',
  repetitions: 2,
  // A grid gets no more runs than these unless `adaptive:` asks, so it starts with one more: three runs a cell is the
  // fewest that let a claim's interval decide on this host (docs/statistics.md, The comparisons).
  grid_repetitions: 3,
  warmup: 0,
  adaptive: null,
  // The cap a cell when `adaptive:` names none: the default file's (docs/settling.md), under the bound study's 10.
  adaptive_max_repetitions: 8,
  timeout: 300,
  memory: '1g',
  // domain/interference.js says why 25: the same threshold decides whether a cell got its budget (domain/delivery.js).
  disturbed_above: DEFAULT_DISTURBED_ABOVE,
  max_reruns: 2,
  // Seconds, over a whole experiment: long enough to outlast a build or a test run beside it (minutes), short enough
  // that a host that stays busy costs a bounded delay the plan can print.
  busy_wait: 120,
  // docs/bench-noise.md (npm run bench:noise) measured each of these against today's way; each stays today's way until
  // that measurement says otherwise.
  round_order: 'shuffled',
  speed_probe: false,
  batches: null,
};

/** `batches:` keys left out. */
export const BATCH_DEFAULTS = { warmup: 1, aggregate: 'median' };
