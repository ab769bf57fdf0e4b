// A cell as the workloads' capacity models see it (workloads/*.js `model.predict`): its parameters and the
// capacity axes turned into numbers, with Node's and the spread's defaults where an axis is not set.
import { AXES } from '../domain/axes.js';
import { usableCpus } from '../domain/usable-cpus.js';

/** Axes a capacity model explains; every other axis (node, engine, an environment variable) may change the work itself. */
export const CAPACITY_AXES = ['cpus', 'cpuset', 'uv_threadpool_size', 'workers', 'cluster'];

/**
 * @param {{ values: Record<string, unknown>, params: object }} cell  run.json's cell: axis values and the workload's filled-in params
 * @param {number|null} hostCpus
 * @returns {{ params: object, cpus: number, pool: number, workers: number, cluster: number }|null}  null when the usable CPUs are unknown
 */
export function toModelCell({ values, params }, hostCpus) {
  const cpus = usableCpus(values, hostCpus);
  if (cpus === null || !params) return null;
  return {
    params,
    cpus,
    pool: values.uv_threadpool_size ?? AXES.uv_threadpool_size.unset,
    workers: values.workers ?? 0,
    cluster: values.cluster ?? 0,
  };
}
