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
  return Object.fromEntries(WORKLOAD_NAMES.map((workload) => [workload, fillWorkloadParams(workload, params[workload])]));
}

// An object parameter (http's `pbkdf2`, `loader`, ...) takes its defaults key by key, so naming one key keeps the others.
function fillWorkloadParams(workload, given = {}) {
  const filled = { ...readParamDefaults(workload), ...given };
  for (const [name, schema] of Object.entries(WORKLOADS[workload].params)) {
    const value = given[name];
    if (schema.type === 'object' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      filled[name] = { ...schema.default, ...value };
    }
  }
  return filled;
}
