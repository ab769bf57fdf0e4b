// What the preflight container said, read: its JSON line (images/workload/preflight.js prints it last, on a line of
// its own), or why there is none in words a person can act on — never a bare "exit code 0".

// Past this, stdout is the module's own printing, not the preflight's one line: said as the likely cause.
export const PREFLIGHT_STDOUT_LIMIT = 1024 * 1024;

/** The preflight's report, or null: the last stdout line that is a JSON object with `ok: true`. */
export function readPreflightReport(stdout) {
  const lines = stdout
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('{'));
  for (let i = lines.length - 1; i >= 0; i--) {
    try {
      const report = JSON.parse(lines[i]);
      if (report?.ok === true) return report;
    } catch {
      // printed by the module; keep looking above it
    }
  }
  return null;
}

/**
 * Why a preflight gave no report.
 * @param {{ exitCode: number|null, stdout: string, stderr: string, timedOut: boolean, oomKilled?: boolean }} raw
 * @param {{ timeoutS: number }} context
 */
export function describePreflightFailure(raw, { timeoutS }) {
  const said = raw.stderr
    .trim()
    .split('\n')
    .reverse()
    .find((line) => line.startsWith('preflight failed: '));
  if (said) return said.replace(/^preflight failed: /, '');
  const stderr = raw.stderr.trim() ? `; stderr: ${raw.stderr.trimEnd().split('\n').slice(-3).join(' | ')}` : '';
  if (raw.timedOut)
    return `no answer within ${timeoutS} s (the module did not finish loading${raw.stdout ? `, after ${formatSize(raw.stdout.length)} on stdout` : ''})${stderr}`;
  if (raw.oomKilled) return `killed for memory while loading the module${stderr}`;
  if (raw.exitCode === null) return `the container did not run${stderr}`;
  if (raw.exitCode !== 0)
    return `the module ended the process with exit code ${raw.exitCode} while loading (process.exit or a crash)${stderr}`;
  if (raw.stdout.length > PREFLIGHT_STDOUT_LIMIT) {
    return (
      `stdout too large: the module printed ${formatSize(raw.stdout.length)} while loading, and the preflight's JSON line is not at its end ` +
      `(output past what the engine passed on in time is lost); print to stderr while loading, stdout is for the result line`
    );
  }
  const last = raw.stdout.trim().split('\n').at(-1);
  return (
    `no JSON line on stdout though the process exited 0: the module ended it before the preflight could answer, or wrote over its line` +
    `${last ? ` (stdout ends with: ${JSON.stringify(last.slice(-120))})` : ' (stdout is empty)'}${stderr}`
  );
}

/** The module printed on stdout and left the last line unfinished (images/workload/preflight.js watches it). */
export function describeUnfinishedStdout({ bytes }) {
  return (
    `it writes ${formatSize(bytes)} to stdout${bytes > PREFLIGHT_STDOUT_LIMIT ? ' (stdout too large)' : ''} while loading and leaves the last line unfinished: ` +
    'each run\'s result line would be joined to it and lost, and every run would fail with "no result line"'
  );
}

function formatSize(bytes) {
  return bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MiB`
    : bytes >= 1024
      ? `${Math.round(bytes / 1024)} KiB`
      : `${bytes} bytes`;
}
