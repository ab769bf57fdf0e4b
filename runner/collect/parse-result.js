// The workload's side of the contract: exactly one JSON line on stdout. Anything else on stdout is
// ignored rather than trusted, and its absence is a failure with the reason spelled out.

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
  return { status: 'ok', error: '', result };
}

function formatBytes(bytes) {
  if (!bytes) return 'memory';
  const mib = bytes / 2 ** 20;
  return mib >= 1024 && mib % 1024 === 0 ? `${mib / 1024}g` : `${Math.round(mib)}m`;
}
