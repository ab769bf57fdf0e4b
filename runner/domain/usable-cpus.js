// The CPUs a container can use: the one home of that arithmetic (summary.csv's cpu_capacity, the capacity
// models of runner/model/).
import { parseCpuList } from '../../images/workload/lib/cpuset.js';

/**
 * The CPU time per second the container can use: the quota if set, the number of pinned CPUs if set,
 * the host's CPUs if neither — the smallest of those that apply. Threads are not capacity: a pool of
 * 8 on 1 CPU still has 1 CPU of capacity. A fractional quota (0.5) stays fractional.
 */
export function usableCpus({ cpus, cpuset }, hostCpus) {
  const limits = [cpus, cpuset === undefined ? undefined : parseCpuList(cpuset).length, hostCpus].filter(
    (value) => typeof value === 'number' && Number.isFinite(value) && value > 0,
  );
  return limits.length ? Math.min(...limits) : null;
}
