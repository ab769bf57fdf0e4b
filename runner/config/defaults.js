// What an experiment gets for every key it leaves out.

export const EXPERIMENT_DEFAULTS = {
  description: '',
  // docs/statistics.md (npm run bench:stats) chose these: the fewest runs a cell that decide a typical claim
  // right at least 75% of the time on this host's noise, and the adaptive cap that decides each 95% of the time.
  repetitions: 4,
  warmup: 0,
  adaptive: null,
  // The adaptive cap when `adaptive:` names none (the study's, as `repetitions`).
  adaptive_max_repetitions: 8,
  timeout: 300,
  memory: '1g',
  // Between the two kinds of run docs/statistics/quiet/noise-3 holds: with the host to itself interference_pct stays
  // under 2% (nine runs in ten), while the runs a neighbour slowed by 40–50% read 44–49% (docs/statistics.md, The
  // noise).
  disturbed_above: 25,
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
