import { combineHttpRaw } from '../../../runner/collect/http-result.js';
import { runColumns } from '../../../runner/domain/columns.js';
import { toRows } from '../../../runner/collect/to-rows.js';
import { workloadColumns } from '../../../runner/domain/workloads.js';

const serverLine = {
  workload: 'http',
  wall_ms: 2000,
  setup_ms: 150,
  tasks: [],
  seen: {
    available_parallelism: 1,
    cpus_length: 2,
    cpu_quota: 1,
    cpuset: '0',
    uv_threadpool_size: 4,
    node_version: 'v24.9.0',
    cgroup_version: 1,
  },
  peak_threads: 12,
  pool_threads: 4,
  throttled_periods: 3,
  nr_periods: 20,
  throttled_ms: 40,
  cpu_user_ms: 1800,
  cpu_system_ms: 100,
  peak_rss_mb: 70,
  cgroup_memory_peak_mb: 80,
  metrics: { event_loop_delay_mean_ms: 1.5, event_loop_delay_p99_ms: 9, warmup_drain_ms: 120, requests_served: 700 },
};
const loaderMetrics = {
  requests_per_sec: 350,
  latency_p50_ms: 20,
  latency_p90_ms: 35,
  latency_p99_ms: 60,
  latency_p999_ms: 66,
  latency_max_ms: 70,
  throughput_bytes_per_sec: 100000,
  errors: 0,
  timeouts: 0,
  non2xx: 0,
  fast_route_p50_ms: 2.1,
  fast_route_p99_ms: 9.5,
  burst_p50_ms: null,
  burst_max_ms: null,
  burst_first_p50_ms: null,
  burst_fast_p50_ms: null,
  loader_saturated: false,
  loader_cpu_ms: 500,
  arrival_rate: null,
  send_lag_p99_ms: null,
  loader_queued: null,
  loader_behind: null,
};
const loaderLine = {
  workload: 'http',
  role: 'loader',
  wall_ms: 2001,
  tasks: [],
  metrics: loaderMetrics,
  loader: { cpu_ms: 500 },
};
const ok = (line) => ({ exitCode: 0, stdout: `${JSON.stringify(line)}\n`, stderr: '', oomKilled: false });
const pair = (overrides = {}) => ({
  server: ok(serverLine),
  loader: ok(loaderLine),
  timedOut: false,
  aborted: false,
  serverEndedFirst: false,
  containerMs: 4000,
  containerId: 'abc',
  ...overrides,
});
const limits = { cpus: 1, cpuset: '1' };
const run = {
  experiment: 'http',
  cell: 'c1',
  repetition: 1,
  values: { workload: 'http', cpus: 1, cpuset: '0' },
  timeoutMs: 60000,
  limits: { memoryBytes: 2 ** 29 },
};
const judge = (raw) => toRows(run, { ...raw, startedAt: new Date(0), finishedAt: new Date(1000) });

describe('combineHttpRaw', () => {
  test('both lines → one ok row: server timings and cgroup readings, loader http numbers, loader limits', () => {
    const { row, tasks, status } = judge(combineHttpRaw(pair(), limits));
    expect(status).toBe('ok');
    expect(tasks).toEqual([]);
    expect(row).toMatchObject({
      wall_ms: 2000,
      throttled_periods: 3,
      cpu_user_ms: 1800,
      peak_rss_mb: 70,
      seen_cpuset: '0',
      ...loaderMetrics,
    });
    expect(row).toMatchObject({
      event_loop_delay_mean_ms: 1.5,
      event_loop_delay_p99_ms: 9,
      loader_cpus: 1,
      loader_cpuset: '1',
    });
    for (const column of workloadColumns(['http'])) expect(row).toHaveProperty(column);
    expect(runColumns([], ['http'])).toEqual(
      expect.arrayContaining(Object.keys(row).filter((key) => key !== 'values')),
    );
  });

  test("the measured period second by second: the loader's answers beside the server's CPU, as tasks.csv rows", () => {
    const seconds = [
      { second: 1, requests: 100, p50_ms: 5, p99_ms: 9, max_ms: 12 },
      { second: 2, requests: 98, p50_ms: 5.5, p99_ms: 30, max_ms: 41 },
      // An open loop's last answers come after the server's last whole second.
      { second: 3, requests: 0, p50_ms: null, p99_ms: null, max_ms: null },
    ];
    const server = ok({ ...serverLine, cpu_seconds: [510, 505] });
    const loader = ok({ ...loaderLine, seconds });
    const { row, tasks } = judge(combineHttpRaw(pair({ server, loader }), limits));
    expect(row).not.toHaveProperty('cpu_seconds');
    expect(
      tasks.map(({ task, start_ms, end_ms, requests, p99_ms, cpu_ms }) => [
        task,
        start_ms,
        end_ms,
        requests,
        p99_ms,
        cpu_ms,
      ]),
    ).toEqual([
      [1, 0, 1000, 100, 9, 510],
      [2, 1000, 2000, 98, 30, 505],
      [3, 2000, 3000, 0, undefined, undefined],
    ]);
    expect(tasks[0]).toMatchObject({ experiment: 'http', cell: 'c1', repetition: 1, duration_ms: 1000 });
  });

  test('a server stopped after printing its line (its exit waited on its pool) is an ok run', () => {
    const server = { ...ok(serverLine), exitCode: 137 };
    const { status } = judge(combineHttpRaw(pair({ server, serverStoppedAfterLine: true }), limits));
    expect(status).toBe('ok');
    expect(judge(combineHttpRaw(pair({ server }), limits)).status).toBe('failed');
  });

  test('a loader that found a wrong answer fails the run with its message, labelled', () => {
    const loader = {
      exitCode: 1,
      stdout: '',
      stderr:
        'warm-up: 1 s\nloader failed: the server answered GET /work with a wrong body: expected 2 bytes "ok", got 5 bytes "nope!"\n',
      oomKilled: false,
    };
    const { row, status } = judge(
      combineHttpRaw(pair({ loader, server: { exitCode: 137, stdout: '', stderr: '', oomKilled: false } }), limits),
    );
    expect(status).toBe('failed');
    expect(row.error).toMatch(/\[loader\] loader failed: the server answered GET \/work with a wrong body/);
  });

  test('a server that crashed first is the cause, even though the loader failed after it', () => {
    const server = {
      exitCode: 1,
      stdout: '',
      stderr: 'workload failed: cluster process 1 exited (signal SIGKILL) while serving\n',
      oomKilled: false,
    };
    const loader = { exitCode: 137, stdout: '', stderr: '', oomKilled: false };
    const { row, status } = judge(combineHttpRaw(pair({ server, loader, serverEndedFirst: true }), limits));
    expect(status).toBe('failed');
    expect(row.error).toMatch(/code 1; stderr: .*\[server\] workload failed: cluster process 1 exited/);
  });

  test('a server that printed nothing after the measured period fails the run', () => {
    const { row, status } = judge(
      combineHttpRaw(pair({ server: { exitCode: 137, stdout: '', stderr: '', oomKilled: false } }), limits),
    );
    expect(status).toBe('failed');
    expect(row.error).toMatch(/\[server\] printed no result line/);
  });

  test('timeout, server OOM and abort keep their own meaning', () => {
    expect(judge(combineHttpRaw(pair({ timedOut: true }), limits)).status).toBe('timeout');
    expect(
      judge(combineHttpRaw(pair({ server: { exitCode: 137, stdout: '', stderr: '', oomKilled: true } }), limits))
        .status,
    ).toBe('oom');
    expect(combineHttpRaw(pair({ aborted: true }), limits).aborted).toBe(true);
  });
});
