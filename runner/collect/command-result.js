// The outcome of a command's tasks → one raw outcome of the shape runContainer returns, with a
// result line the lab wrote for it (the command itself prints what it likes). judgeRun and toRows
// then treat it like any run: exit code → status, cgroup numbers → the usual columns.

import { averageUserNumbers, readLastLineNumbers } from '../../images/workload/lib/user-numbers.js';

const MIB = 2 ** 20;

/**
 * @param {Awaited<ReturnType<import('../docker/runs/command-run.js').runCommandTasks>>} outcome
 */
export function combineCommandRaw(outcome) {
  const { tasks } = outcome;
  const failing = tasks.find((task) => task.exitCode !== 0) ?? tasks.at(-1);
  const result = buildCommandResult(tasks);
  const stderr =
    tasks.map((task) => task.stderr).join('') +
    tasks
      .filter((task) => task.watch === null)
      .map(
        (task) =>
          `[runner] no cgroup reading for task ${task.task}: ${task.watchError.trim() || 'the command ended before the watcher found its cgroup'}\n`,
      )
      .join('');
  return {
    exitCode: failing.exitCode,
    stdout: `${JSON.stringify(result)}\n`,
    stderr,
    oomKilled: failing.oomKilled,
    timedOut: outcome.timedOut,
    aborted: outcome.aborted,
    containerMs: outcome.containerMs,
    containerId: outcome.containerId,
  };
}

export function buildCommandResult(tasks) {
  const origin = tasks[0].startedMs;
  const snapshots = tasks.map((task) => task.watch?.snapshot ?? null);
  const first = snapshots.find(Boolean) ?? {};
  return {
    workload: 'command',
    wall_ms: round(sum(tasks.map((task) => task.finishedMs - task.startedMs))),
    setup_ms: null,
    tasks: tasks.map((task) => ({
      task: task.task,
      start_ms: round(task.startedMs - origin),
      end_ms: round(task.finishedMs - origin),
      process: 0,
      thread: 0,
    })),
    seen: { cpu_quota: first.cpuQuota ?? null, cpuset: first.cpuset ?? null, cgroup_version: first.version ?? null },
    peak_threads: null,
    pool_threads: null,
    nr_periods: sumOf(snapshots, 'nrPeriods'),
    throttled_periods: sumOf(snapshots, 'nrThrottled'),
    throttled_ms: sumOf(snapshots, 'throttledMs'),
    cpu_user_ms: sumOf(snapshots, 'userMs'),
    cpu_system_ms: sumOf(snapshots, 'systemMs'),
    cpu_total_ms: sumOf(snapshots, 'totalMs'),
    peak_rss_mb: null,
    cgroup_memory_peak_mb: maxOf(snapshots, 'memoryPeakBytes', (bytes) => round(bytes / MIB)),
    host: sumHostWindows(tasks.map((task) => task.watch?.host ?? null)),
    metrics: {
      ...averageUserNumbers(tasks.map((task) => readLastLineNumbers(task.stdout))),
      // Whether every reading was taken after the command's exit, inside its cgroup (exact).
      cgroup_reading_final: tasks.every((task) => task.watch?.final === true),
    },
  };
}

// A task without a reading makes the run's total unknown, not smaller.
function sumOf(snapshots, key) {
  if (snapshots.some((snapshot) => snapshot?.[key] == null)) return null;
  return round(sum(snapshots.map((snapshot) => snapshot[key])));
}

// The tasks' windows (each from the watcher's first reading of the cgroup to its last) added up, as wall_ms is.
function sumHostWindows(windows) {
  if (windows.length === 0 || windows.some((window) => window === null)) return null;
  return {
    cpu_ms: round(sum(windows.map((window) => window.cpu_ms))),
    window_ms: round(sum(windows.map((window) => window.window_ms))),
    cpus: windows[0].cpus,
  };
}

function maxOf(snapshots, key, convert) {
  const values = snapshots.map((snapshot) => snapshot?.[key]).filter((value) => value != null);
  return values.length === 0 ? null : convert(Math.max(...values));
}

function sum(values) {
  return values.reduce((total, value) => total + value, 0);
}

function round(value) {
  return Math.round(value * 1000) / 1000;
}
