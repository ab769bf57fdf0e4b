// What the whole host's CPUs did over a window: /proc/stat's `cpu` line. /proc/stat is not namespaced (Docker
// does not mask it; only lxcfs would), so inside a container it counts every process of the engine host: the
// run itself, a neighbour slot, the runner, the engine, a browser or a build. The runner subtracts the run's own
// CPU time (its cgroup's exact counter) to get what everything else took in the same window (runner/domain/
// interference.js).

import { readClockMs } from '../clock.js';
import { readTextOrNull } from './read-text.js';

// /proc/stat counts in USER_HZ ticks, sysconf(_SC_CLK_TCK), whatever HZ the kernel runs at internally; it is 100
// on every architecture Linux and Docker run on (`getconf CLK_TCK`), and Node cannot call sysconf.
export const USER_HZ = 100;
const MS_PER_TICK = 1000 / USER_HZ;

/**
 * @typedef {object} HostCpuReading
 * @property {number} busyMs  user + nice + system + steal, summed over every CPU, since boot
 * @property {number} idleMs  idle + iowait, likewise
 * @property {number} cpus    the `cpuN` lines: CPUs online
 * @property {number} atMs    clock.js time of the reading
 */

/**
 * The first line of /proc/stat → busy and idle ticks, and the number of CPUs. Busy is what processes ran: user,
 * nice, system, and steal (a hypervisor gave the CPU to another machine, which takes time from the run as surely
 * as a process does). irq and softirq are left out: they are mostly the kernel moving the run's own packets (an
 * http run's load generator talks to its server through the host's network stack), which no container's counter
 * holds, so counting them made every http run look disturbed. guest and guest_nice are already inside user and
 * nice, so adding them would count them twice. null when the text has no `cpu` line.
 */
export function parseProcStat(text) {
  const lines = (text ?? '').split('\n');
  const total = lines.find((line) => /^cpu\s/.test(line));
  if (!total) return null;
  const [user, nice, system, idle, iowait = 0, , , steal = 0] = total.trim().split(/\s+/).slice(1).map(Number);
  if (![user, nice, system, idle].every(Number.isFinite)) return null;
  return {
    busyTicks: user + nice + system + steal,
    idleTicks: idle + iowait,
    cpus: lines.filter((line) => /^cpu\d+\s/.test(line)).length,
  };
}

/**
 * @returns {HostCpuReading|null}  null where /proc/stat cannot be read (no /proc): the run then has no interference
 * figures
 */
export function readHostCpu(readText = readTextOrNull, now = readClockMs) {
  const parsed = parseProcStat(readText('/proc/stat'));
  if (!parsed) return null;
  return {
    busyMs: parsed.busyTicks * MS_PER_TICK,
    idleMs: parsed.idleTicks * MS_PER_TICK,
    cpus: parsed.cpus,
    atMs: now(),
  };
}

/**
 * The host's CPU time over the window between two readings, and the window's length.
 * @returns {{ cpuMs: number, windowMs: number, cpus: number }|null}
 */
export function diffHostCpu(before, after) {
  if (!before || !after) return null;
  return { cpuMs: after.busyMs - before.busyMs, windowMs: after.atMs - before.atMs, cpus: after.cpus };
}
