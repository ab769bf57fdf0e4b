// Columns a workload adds to runs.csv beyond the common ones, in order. The workload's result line
// carries them under `metrics`; a workload that adds none needs no entry.
export const WORKLOAD_COLUMNS = {
  http: [
    'requests_per_sec', 'latency_p50_ms', 'latency_p90_ms', 'latency_p99_ms', 'latency_max_ms',
    'throughput_bytes_per_sec', 'errors', 'timeouts', 'non2xx', 'fast_route_p99_ms',
    'event_loop_delay_mean_ms', 'event_loop_delay_p99_ms', 'loader_cpus', 'loader_cpuset', 'loader_saturated',
  ],
  // idle: resident set after the threads and processes settled, all processes summed, and the primary's alone.
  idle: ['rss_mb', 'main_rss_mb'],
  // command: true when every cgroup reading was taken after the command exited (exact), see images/workload/cgroup-watch.js.
  command: ['cgroup_reading_final'],
};

export function workloadColumns(workloads) {
  return [...new Set(workloads.flatMap((workload) => WORKLOAD_COLUMNS[workload] ?? []))];
}
