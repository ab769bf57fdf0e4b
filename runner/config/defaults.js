// What an experiment gets for every key it leaves out.

export const EXPERIMENT_DEFAULTS = {
  description: '',
  repetitions: 3,
  warmup: 0,
  adaptive: null,
  timeout: 300,
  memory: '1g',
  // Provisional: the statistics study of issue 21 (a fit to real residuals) chooses the default.
  disturbed_above: 25,
  max_reruns: 2,
};
