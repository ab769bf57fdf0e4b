// The runner's side of the workload registry. Each workload is one module in images/workload/workloads/
// (the image runs the same modules); this file only derives what the runner's stages ask of them.
import { getWorkload, WORKLOADS, WORKLOAD_NAMES } from '../../images/workload/workloads/index.js';
import { fillParams, readDefaults } from '../../images/workload/workloads/params.js';

export { getWorkload, WORKLOADS, WORKLOAD_NAMES };

/** { tasks: 16, iterations: 100000, ... } from the `default` of each parameter schema. */
export function readParamDefaults(workload) {
  return readDefaults(WORKLOADS[workload].params);
}

/** Parameters for every known workload, so a later stage never wonders whether a key is set. */
export function fillAllParams(params = {}) {
  return Object.fromEntries(
    WORKLOAD_NAMES.map((workload) => [workload, fillParams(WORKLOADS[workload].params, params[workload])]),
  );
}

/** [{ name, unit, description, type? }] the workload adds to runs.csv; [] for none. */
export function listWorkloadColumns(workload) {
  return getWorkload(workload)?.columns ?? [];
}

/** Column names these workloads add to runs.csv beyond the common ones, each once, in registry order per workload. */
export function workloadColumns(workloads) {
  return [...new Set(workloads.flatMap((workload) => listWorkloadColumns(workload).map((column) => column.name)))];
}
