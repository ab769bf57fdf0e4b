// The workload's side of the contract: exactly one JSON line on stdout. Anything else on stdout is
// ignored rather than trusted, and its absence is a failure with the reason spelled out.

import { parseCpuList } from '../../images/workload/lib/cpuset.js';

const STDERR_TAIL_LINES = 5;

/** @returns {object|null} the result object, or null when stdout holds none */
export function parseResultLine(stdout) {
  const lines = stdout
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!lines[i].startsWith('{')) continue;
    try {
      const result = JSON.parse(lines[i]);
      if (typeof result.wall_ms === 'number' && Array.isArray(result.tasks)) return result;
    } catch {
      // not the result line; keep looking above it
    }
  }
  return null;
}

export function tailLines(text, count = STDERR_TAIL_LINES) {
  return text.trimEnd().split('\n').slice(-count).join(' | ');
}

/**
 * What happened to a run, from the container's side: `ok` or a failure word, with the reason.
 * @returns {{ status: 'ok'|'timeout'|'oom'|'not_ready'|'failed', error: string, result: object|null }}
 *   not_ready: an http server (your start command) that never answered within its bound (collect/http-result.js)
 */
export function judgeRun(raw, { timeoutMs, memoryBytes }) {
  const result = raw.timedOut || raw.oomKilled ? null : parseResultLine(raw.stdout);
  const stderr = tailLines(raw.stderr);
  const because = stderr ? `; stderr: ${stderr}` : '';
  if (raw.timedOut)
    return { status: 'timeout', error: `killed after the ${timeoutMs / 1000} s timeout${because}`, result };
  if (raw.oomKilled)
    return { status: 'oom', error: `killed for memory: over the ${formatBytes(memoryBytes)} limit${because}`, result };
  if (raw.notReady) return { status: 'not_ready', error: `the server never became ready${because}`, result };
  if (raw.exitCode === null) return { status: 'failed', error: `the container did not run${because}`, result };
  if (raw.exitCode !== 0)
    return { status: 'failed', error: `workload exited with code ${raw.exitCode}${because}`, result };
  if (!result) return { status: 'failed', error: `workload printed no result line on stdout${because}`, result };
  const misplaced = checkPlacement(raw.placement, result.seen);
  if (misplaced) return { status: 'failed', error: `placement differs from the cell: ${misplaced}`, result };
  return { status: 'ok', error: '', result };
}

/**
 * A backend that cannot place a run exactly as the cell says (Kubernetes: the kubelet picks the CPUs) hands over what
 * it asked for, `{ cpus, exclusive }` (runner/kubernetes/job-spec.js); a run whose own cgroup readings show something
 * else is said, never measured as if it were the cell. Null when it got what it asked, or nothing was asked.
 */
export function checkPlacement(placement, seen) {
  if (!placement || placement.cpus === null || placement.cpus === undefined || !seen) return null;
  const ids = parseCpuList(seen.cpuset);
  const quota = typeof seen.cpu_quota === 'number' ? seen.cpu_quota : null;
  const got = `cpuset ${seen.cpuset || 'unknown'} and ${quota === null ? 'no quota' : `a quota of ${quota} CPUs`}`;
  if (placement.exclusive && ids.length !== placement.cpus)
    return `asked for ${placement.cpus} exclusive CPU(s), the pod got ${got} (is the node's CPU manager policy static?)`;
  const usable = Math.min(quota ?? Infinity, ids.length > 0 ? ids.length : Infinity);
  if (Math.abs(usable - placement.cpus) > 0.01) return `asked for ${placement.cpus} CPU(s), the pod got ${got}`;
  return null;
}

function formatBytes(bytes) {
  if (!bytes) return 'memory';
  const mib = bytes / 2 ** 20;
  return mib >= 1024 && mib % 1024 === 0 ? `${mib / 1024}g` : `${Math.round(mib)}m`;
}
