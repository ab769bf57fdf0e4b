// What the container's cgroup says: CPU quota, cpuset, CPU time, throttling, memory peak. Inside a
// container /sys/fs/cgroup shows the container's own cgroup, so its counters cover every process and
// thread of the run. cgroup v1 and v2 name and scale things differently; both become one Snapshot.
// A file that is missing or unreadable makes its values null, never an error.

import { readTextOrNull } from './read-text.js';

const ROOT = '/sys/fs/cgroup';

/**
 * @typedef {object} CgroupSnapshot
 * @property {1|2|null} version
 * @property {number|null} cpuQuota  CPUs the quota allows (quota ÷ period); null when unlimited
 * @property {string|null} cpuset  as the kernel prints it, e.g. "0-1"
 * @property {number|null} nrPeriods
 * @property {number|null} nrThrottled
 * @property {number|null} throttledMs
 * @property {number|null} userMs
 * @property {number|null} systemMs
 * @property {number|null} memoryPeakBytes  highest memory use since the cgroup was created
 */

/** @param {(path: string) => string|null} [readText]  returns null for a file it cannot read */
export function readCgroupSnapshot(readText = readTextOrNull, root = ROOT) {
  const read = (path) => readText(`${root}/${path}`);
  if (read('cgroup.controllers') !== null) return readV2(read);
  const v1 = readV1(read);
  const seenAny = Object.entries(v1).some(([key, value]) => key !== 'version' && value !== null);
  return seenAny ? v1 : { ...v1, version: null };
}

function readV1(read) {
  const stat = parseKeyedNumbers(read('cpu/cpu.stat'));
  return {
    version: 1,
    cpuQuota: parseCpuQuotaV1(read('cpu/cpu.cfs_quota_us'), read('cpu/cpu.cfs_period_us')),
    cpuset: parseCpuset(read('cpuset/cpuset.effective_cpus')),
    nrPeriods: stat.nr_periods ?? null,
    nrThrottled: stat.nr_throttled ?? null,
    throttledMs: scale(stat.throttled_time, 1e6),
    // usage_user/usage_sys are split at timer ticks and read low for bursty work (an http server);
    // cpuacct.usage is the scheduler's exact runtime.
    totalMs: scale(parseNumber(read('cpuacct/cpuacct.usage')), 1e6),
    userMs: scale(parseNumber(read('cpuacct/cpuacct.usage_user')), 1e6),
    systemMs: scale(parseNumber(read('cpuacct/cpuacct.usage_sys')), 1e6),
    memoryPeakBytes: parseNumber(read('memory/memory.max_usage_in_bytes')),
  };
}

function readV2(read) {
  const stat = parseKeyedNumbers(read('cpu.stat'));
  return {
    version: 2,
    cpuQuota: parseCpuMax(read('cpu.max')),
    cpuset: parseCpuset(read('cpuset.cpus.effective')),
    nrPeriods: stat.nr_periods ?? null,
    nrThrottled: stat.nr_throttled ?? null,
    throttledMs: scale(stat.throttled_usec, 1e3),
    totalMs: scale(stat.usage_usec, 1e3),
    userMs: scale(stat.user_usec, 1e3),
    systemMs: scale(stat.system_usec, 1e3),
    memoryPeakBytes: parseNumber(read('memory.peak')),
  };
}

/** Counter changes between two snapshots; null where either side lacks the counter. */
export function diffCgroupCounters(before, after) {
  const diff = (key) => (before[key] == null || after[key] == null ? null : after[key] - before[key]);
  return {
    nrPeriods: diff('nrPeriods'),
    nrThrottled: diff('nrThrottled'),
    throttledMs: diff('throttledMs'),
    totalMs: diff('totalMs'),
    userMs: diff('userMs'),
    systemMs: diff('systemMs'),
  };
}

/** `cpu.stat` and friends: one "name value" pair per line. */
export function parseKeyedNumbers(text) {
  const values = {};
  for (const line of (text ?? '').split('\n')) {
    const [key, value] = line.trim().split(/\s+/);
    if (key && value !== undefined && Number.isFinite(Number(value))) values[key] = Number(value);
  }
  return values;
}

/** v1 cpu.cfs_quota_us is -1 when unlimited. */
export function parseCpuQuotaV1(quotaText, periodText) {
  const quota = parseNumber(quotaText);
  const period = parseNumber(periodText);
  return quota > 0 && period > 0 ? quota / period : null;
}

/** v2 cpu.max: "max 100000" when unlimited, else "50000 100000". */
export function parseCpuMax(text) {
  const [quota, period] = (text ?? '').trim().split(/\s+/);
  if (quota === undefined || quota === 'max') return null;
  return parseCpuQuotaV1(quota, period);
}

export function parseCpuset(text) {
  const cpuset = (text ?? '').trim();
  return cpuset === '' ? null : cpuset;
}

export function parseNumber(text) {
  const trimmed = (text ?? '').trim();
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
}

/** ns or µs → ms. Dividing (not multiplying by 1e-6) keeps 800100000 ns exactly 800.1. */
function scale(value, divisor) {
  return value === null || value === undefined ? null : value / divisor;
}
