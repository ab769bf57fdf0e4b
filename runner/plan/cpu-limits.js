// Cell values → the HostConfig fields Docker applies. `--cpus 1.5` is NanoCpus 1.5e9: a CFS quota of
// 150 ms per 100 ms period, which the container sees as cpu.cfs_quota_us / cpu.cfs_period_us.

export function toHostLimits({ cpus, cpuset }, memoryBytes) {
  return {
    nanoCpus: cpus === undefined ? undefined : Math.round(cpus * 1e9),
    cpusetCpus: cpuset === undefined ? undefined : String(cpuset),
    memoryBytes,
  };
}
