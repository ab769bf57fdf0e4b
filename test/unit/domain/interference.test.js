// The arithmetic of interference on hand-worked runs, and the one rule of which runs a statistic counts.
import { isDisturbed, isMeasured, measureInterference, MIN_ALLOWED_MS } from '../../../runner/domain/interference.js';

// A run on a 2-CPU host, measured for 1 s, that used 1.5 s of CPU while the host's CPUs were busy for 1.8 s.
const run = (overrides = {}) => ({
  cpu_total_ms: 1500,
  seen: { cpu_quota: 2, cpuset: '0-1' },
  host: { cpu_ms: 1800, window_ms: 1000, cpus: 2 },
  ...overrides,
});

describe('host_other_cpu_ms and interference_pct', () => {
  test("the host's CPU time less the run's own, as a share of window × the CPUs the run was allowed", () => {
    // 300 ms of others over 1000 ms × 2 CPUs.
    expect(measureInterference(run())).toEqual({ hostOtherCpuMs: 300, interferencePct: 15 });
  });

  test('allowed CPUs are min(quota, cpuset size, host CPUs); only what the others took beyond the CPUs the run could not use contends', () => {
    // A 0.5-CPU quota leaves 1.5 CPUs (1500 ms) to the others: their 300 ms take nothing from the run.
    expect(measureInterference(run({ seen: { cpu_quota: 0.5, cpuset: '0-1' } })).interferencePct).toBe(0);
    expect(measureInterference(run({ seen: { cpu_quota: null, cpuset: '1' } })).interferencePct).toBe(0);
    expect(measureInterference(run({ seen: { cpu_quota: null, cpuset: null } })).interferencePct).toBe(15);
    // 1.5 CPUs of others beside a 0.5-CPU run: exactly the spare CPUs, so no contention; 1.8 CPUs: 300 ms of 500.
    expect(
      measureInterference(
        run({ cpu_total_ms: 500, seen: { cpu_quota: 0.5 }, host: { cpu_ms: 2000, window_ms: 1000, cpus: 2 } }),
      ).interferencePct,
    ).toBe(0);
    expect(
      measureInterference(
        run({ cpu_total_ms: 500, seen: { cpu_quota: 0.5 }, host: { cpu_ms: 2300, window_ms: 1000, cpus: 2 } }),
      ).interferencePct,
    ).toBe(60);
  });

  test("http: the load generator runs in a second container, and is the run's own too", () => {
    expect(measureInterference(run({ loader: { cpu_ms: 200 } }))).toEqual({ hostOtherCpuMs: 100, interferencePct: 5 });
  });

  test("a quiet host can read a tick or two below the run's exact cgroup time: kept as measured", () => {
    expect(measureInterference(run({ host: { cpu_ms: 1490, window_ms: 1000, cpus: 2 } }))).toEqual({
      hostOtherCpuMs: -10,
      interferencePct: 0,
    });
  });

  test('no host reading (no /proc, a folder from before) or no CPU time: unknown, not zero', () => {
    expect(measureInterference(run({ host: null }))).toEqual({ hostOtherCpuMs: null, interferencePct: null });
    expect(measureInterference(run({ cpu_total_ms: null }))).toEqual({ hostOtherCpuMs: null, interferencePct: null });
    expect(measureInterference(undefined)).toEqual({ hostOtherCpuMs: null, interferencePct: null });
    expect(measureInterference(run({ host: { cpu_ms: 1800, window_ms: 0, cpus: 2 } })).interferencePct).toBeNull();
  });

  test("a window too short for 10 ms ticks has others' time but no share: a tick would be 4% of it or more", () => {
    // 240 ms × 2 CPUs = 480 ms allowed, under MIN_ALLOWED_MS; 250 ms × 2 is enough.
    expect(measureInterference(run({ cpu_total_ms: 400, host: { cpu_ms: 420, window_ms: 240, cpus: 2 } }))).toEqual({
      hostOtherCpuMs: 20,
      interferencePct: null,
    });
    expect(MIN_ALLOWED_MS).toBe(500);
    expect(
      measureInterference(run({ cpu_total_ms: 400, host: { cpu_ms: 420, window_ms: 250, cpus: 2 } })).interferencePct,
    ).toBe(4);
  });
});

test('disturbed: strictly above the threshold; unknown interference is not disturbed', () => {
  expect(isDisturbed(25.001, 25)).toBe(true);
  expect(isDisturbed(25, 25)).toBe(false);
  expect(isDisturbed(null, 25)).toBe(false);
  expect(isDisturbed(80, undefined)).toBe(false);
});

test('a statistic counts ok runs that are neither warm-ups nor disturbed, disturbed ones too with keepDisturbed', () => {
  const rows = [
    { status: 'ok' },
    { status: 'ok', disturbed: false },
    { status: 'ok', disturbed: true },
    { status: 'ok', warmup: true },
    { status: 'failed' },
  ];
  expect(rows.map((row) => isMeasured(row))).toEqual([true, true, false, false, false]);
  expect(rows.map((row) => isMeasured(row, { keepDisturbed: true }))).toEqual([true, true, true, false, false]);
});
