// What an experiment gets for every key it leaves out.

import { WORKLOADS, WORKLOAD_NAMES } from './workloads/index.js';

export const EXPERIMENT_DEFAULTS = {
  description: '',
  repetitions: 3,
  warmup: 0,
  adaptive: null,
  timeout: 300,
  memory: '1g',
};

/** { tasks: 16, iterations: 100000, ... } from the `default` of each parameter schema. */
export function readParamDefaults(workload) {
  const entries = Object.entries(WORKLOADS[workload].params).map(([name, schema]) => [name, schema.default]);
  return Object.fromEntries(entries);
}

/** Parameters for every known workload, so a later stage never wonders whether a key is set. */
export function fillParams(params = {}) {
  return Object.fromEntries(
    WORKLOAD_NAMES.map((workload) => [workload, { ...readParamDefaults(workload), ...params[workload] }]),
  );
}
