// The cgroup watcher (images/workload/cgroup-watch.js) against a fake host hierarchy of each cgroup
// version: it finds the container's cgroup once it appears, follows it, and when the cgroup has no
// process left reports that last reading as final, in the probe's units.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

const WATCH = fileURLToPath(new URL('../../../images/workload/cgroup-watch.js', import.meta.url));
const ID = 'c0ffee';

const LAYOUTS = {
  2: {
    root: { 'cgroup.controllers': 'cpuset cpu memory pids\n' },
    procs: `docker/${ID}/cgroup.procs`,
    files: (usage) => ({
      [`docker/${ID}/cgroup.controllers`]: 'cpu memory\n',
      [`docker/${ID}/cpu.stat`]: `usage_usec ${usage * 1000}\nuser_usec ${usage * 800}\nsystem_usec ${usage * 200}\nnr_periods 10\nnr_throttled 3\nthrottled_usec 40000\n`,
      [`docker/${ID}/cpu.max`]: '50000 100000\n',
      [`docker/${ID}/cpuset.cpus.effective`]: '0-1\n',
      [`docker/${ID}/memory.peak`]: `${8 * 2 ** 20}\n`,
      [`docker/${ID}/memory.current`]: `${4 * 2 ** 20}\n`,
    }),
  },
  1: {
    root: {},
    procs: `cpuacct/docker/${ID}/cgroup.procs`,
    files: (usage) => ({
      [`cpuacct/docker/${ID}/cpuacct.usage`]: `${usage * 1e6}\n`,
      [`cpuacct/docker/${ID}/cpuacct.usage_user`]: `${usage * 0.8e6}\n`,
      [`cpuacct/docker/${ID}/cpuacct.usage_sys`]: `${usage * 0.2e6}\n`,
      [`cpu/docker/${ID}/cpu.stat`]: 'nr_periods 10\nnr_throttled 3\nthrottled_time 40000000\n',
      [`cpu/docker/${ID}/cpu.cfs_quota_us`]: '50000\n',
      [`cpu/docker/${ID}/cpu.cfs_period_us`]: '100000\n',
      [`cpuset/docker/${ID}/cpuset.effective_cpus`]: '0-1\n',
      [`memory/docker/${ID}/memory.max_usage_in_bytes`]: `${8 * 2 ** 20}\n`,
    }),
  },
};

function writeTree(root, files) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

async function until(child, marker) {
  let seen = '';
  child.stdout.on('data', (chunk) => {
    seen += chunk;
  });
  while (!seen.includes(marker)) await delay(5);
}

test.each([1, 2])(
  'cgroup v%i: found when it appears, followed while it runs, final once its processes are gone',
  async (version) => {
    const layout = LAYOUTS[version];
    const root = mkdtempSync(join(tmpdir(), 'lab-cgroup-'));
    writeTree(root, layout.root);
    const child = execa(process.execPath, [WATCH], { env: { LAB_WATCH: JSON.stringify({ id: ID, root }) } });
    // A watcher left polling its fake cgroup (a test timed out under load) must not outlive the test.
    try {
      await until(child, '"ready"');
      // The container starts: its cgroup appears with a process in it.
      writeTree(root, { ...layout.files(10), [layout.procs]: '4242\n' });
      await until(child, '"watching"');
      // It works, then exits: the counters grow, the cgroup empties.
      writeTree(root, layout.files(250));
      await delay(30);
      writeTree(root, { [layout.procs]: '' });
      const { stdout } = await child;
      const report = JSON.parse(stdout.trim().split('\n').at(-1));
      expect(report).toMatchObject({ found: true, final: true });
      expect(report.snapshot).toMatchObject({
        version,
        cpuQuota: 0.5,
        cpuset: '0-1',
        totalMs: 250,
        userMs: 200,
        systemMs: 50,
        nrPeriods: 10,
        nrThrottled: 3,
        throttledMs: 40,
        memoryPeakBytes: 8 * 2 ** 20,
      });
      // The host's /proc/stat, from the first reading of the cgroup to the last: the 30 ms the test waited, less the
      // millisecond by which a timer may fire early (libuv's loop clock is whole milliseconds, cached per turn).
      expect(report.host).toEqual({
        cpu_ms: expect.any(Number),
        window_ms: expect.any(Number),
        cpus: os.cpus().length,
      });
      expect(report.host.window_ms).toBeGreaterThanOrEqual(29);
    } finally {
      child.kill();
    }
  },
);
