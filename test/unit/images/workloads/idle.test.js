// The idle workload on the host (images/workload/run.js, as the container runs it): threads and
// processes are up when the resident set is read, and every process is counted.
import { execa } from 'execa';
import { fileURLToPath } from 'node:url';
import { parseProcKiB } from '../../../../images/workload/workloads/idle.js';

const RUN_JS = fileURLToPath(new URL('../../../../images/workload/run.js', import.meta.url));

async function runOk(spec) {
  const run = await execa(process.execPath, [RUN_JS], {
    env: { LAB_SPEC: JSON.stringify(spec) },
    reject: false,
    timeout: 60_000,
  });
  if (run.exitCode !== 0) throw new Error(`run.js exited ${run.exitCode}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

describe('idle workload', () => {
  test('reads a size in KiB from /proc/<pid>/status and smaps_rollup', () => {
    expect(parseProcKiB('Name:\tnode\nVmHWM:\t  70000 kB\nVmRSS:\t   61234 kB\nThreads:\t7\n', 'VmRSS')).toBe(61234);
    expect(
      parseProcKiB('Rss:               44696 kB\nPss:               44656 kB\nPss_Dirty:   8764 kB\n', 'Pss'),
    ).toBe(44656);
    expect(parseProcKiB('Name:\tzombie\n', 'VmRSS')).toBeNull();
    expect(parseProcKiB(null, 'VmRSS')).toBeNull();
  });

  test('workers 0: the process alone; wall_ms is the settle time', async () => {
    const result = await runOk({ workload: 'idle', params: { settleMs: 100 } });
    expect(result.wall_ms).toBeGreaterThanOrEqual(99);
    expect(result.metrics.rss_mb).toBeGreaterThan(10);
    expect(result.metrics.main_rss_mb).toBe(result.metrics.rss_mb);
  });

  test('idle worker threads are up when the RSS is read, and cost memory', async () => {
    const alone = await runOk({ workload: 'idle', params: { settleMs: 100 } });
    const four = await runOk({ workload: 'idle', params: { settleMs: 100 }, workers: 4 });
    // Four threads each hold an isolate and a stack: several MiB, never nothing.
    expect(four.metrics.rss_mb).toBeGreaterThan(alone.metrics.rss_mb + 4);
    expect(four.peak_threads).toBeGreaterThanOrEqual(alone.peak_threads + 4);
  });

  test('cluster: rss_mb sums the primary and every cluster process', async () => {
    const result = await runOk({ workload: 'idle', params: { settleMs: 100 }, cluster: 2 });
    expect(result.tasks.map(({ process }) => process)).toEqual([1]);
    // Two children, each a whole Node.js process, on top of the primary.
    expect(result.metrics.rss_mb).toBeGreaterThan(result.metrics.main_rss_mb * 2);
    // Shared pages (the node binary) are split between the processes by PSS, counted in full by each RSS.
    expect(result.metrics.pss_mb).toBeLessThan(result.metrics.rss_mb);
    expect(result.metrics.vsz_mb).toBeGreaterThan(result.metrics.rss_mb);
  });
});
