// The host's /proc/stat as the workload reads it around its measured window: which fields count as busy, the
// USER_HZ ticks in milliseconds, and the window between two readings.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { diffHostCpu, parseProcStat, readHostCpu, USER_HZ } from '../../../../images/workload/probe/host-cpu.js';

// A 2-CPU host: user nice system idle iowait irq softirq steal guest guest_nice.
const PROC_STAT = [
  'cpu  1000 20 300 5000 40 5 15 60 200 10',
  'cpu0 500 10 150 2500 20 3 7 30 100 5',
  'cpu1 500 10 150 2500 20 2 8 30 100 5',
  'intr 12345 0 0',
  'ctxt 999',
  'btime 1700000000',
  'processes 4242',
  '',
].join('\n');

test('busy = user + nice + system + steal (guest is inside user; irq and softirq left out); idle = idle + iowait; one cpuN line a CPU', () => {
  expect(parseProcStat(PROC_STAT)).toEqual({ busyTicks: 1000 + 20 + 300 + 60, idleTicks: 5040, cpus: 2 });
});

test('an old kernel without iowait, irq, softirq and steal still parses; no cpu line is no reading', () => {
  expect(parseProcStat('cpu 10 0 5 100\ncpu0 10 0 5 100\n')).toEqual({ busyTicks: 15, idleTicks: 100, cpus: 1 });
  expect(parseProcStat('')).toBeNull();
  expect(parseProcStat(null)).toBeNull();
  expect(parseProcStat('intr 1 2 3\n')).toBeNull();
});

test("ticks become milliseconds at USER_HZ, and two readings give the host's CPU time over the window", () => {
  const clock = [1000, 1500.5];
  const texts = [PROC_STAT, PROC_STAT.replace('cpu  1000 20 300', 'cpu  1080 20 320')];
  const read = () =>
    readHostCpu(
      () => texts.shift(),
      () => clock.shift(),
    );
  const before = read();
  const after = read();
  expect(before).toEqual({ busyMs: 1380 * (1000 / USER_HZ), idleMs: 5040 * (1000 / USER_HZ), cpus: 2, atMs: 1000 });
  expect(diffHostCpu(before, after)).toEqual({ cpuMs: 100 * (1000 / USER_HZ), windowMs: 500.5, cpus: 2 });
  expect(diffHostCpu(null, after)).toBeNull();
  expect(readHostCpu(() => null)).toBeNull();
});

// USER_HZ is the kernel's unit for /proc/stat; every CPU's busy + idle ticks advance at that rate, however busy.
test('on this host, busy + idle ticks per CPU advance at USER_HZ a second', async () => {
  const read = () => ({ ...parseProcStat(readFileSync('/proc/stat', 'utf8')), at: performance.now() });
  const before = read();
  await delay(600);
  const after = read();
  const ticks = after.busyTicks + after.idleTicks - before.busyTicks - before.idleTicks;
  const seconds = (after.at - before.at) / 1000;
  expect(after.cpus).toBe(os.cpus().length);
  expect(ticks / after.cpus / seconds).toBeGreaterThan(USER_HZ * 0.85);
  expect(ticks / after.cpus / seconds).toBeLessThan(USER_HZ * 1.15);
});
