// An http run's two containers → one raw outcome of the shape runContainer returns, so judgeRun and
// toRows treat it like any run (toRows calls this for the executor's { pair, loaderLimits }). The server's line gives
// the row its timings, cgroup readings and
// event-loop delay; the load generator's line adds the http numbers under `metrics`. A failure names
// the container it came from, and the one that caused it comes last (the error column keeps the tail).
import { EXIT_CODES } from '../../images/workload/workload-error.js';
import { parseResultLine } from './parse-result.js';

/**
 * @param {object} pair  runHttpPair's outcome
 * @param {{ exitCode: number|null, stdout: string, stderr: string, oomKilled: boolean }} pair.server
 * @param {{ exitCode: number|null, stdout: string, stderr: string, oomKilled: boolean }|null} pair.loader  null if
 *   never started
 * @param {boolean} pair.timedOut
 * @param {boolean} pair.aborted
 * @param {boolean} pair.serverEndedFirst  the server exited on its own before the loader was done
 * @param {boolean} [pair.serverStoppedAfterLine]  the server printed its line and was stopped while its exit waited
 * @param {number} pair.containerMs
 * @param {string} pair.containerId  the server's
 * @param {{ cpus: number, cpuset: string, shared?: boolean }} loaderLimits  what the loader was given
 *   (plan/loader-limits.js)
 */
export function combineHttpRaw(pair, loaderLimits) {
  const base = {
    oomKilled: false,
    timedOut: false,
    aborted: false,
    containerMs: pair.containerMs,
    containerId: pair.containerId,
  };
  const failure = describePairFailure(pair) ?? describeSideFailure(pair);
  if (failure) return { ...base, ...failure };
  const { server, loader } = pair;
  const { cpu_seconds: cpuSeconds, ...serverLine } = parseResultLine(server.stdout);
  const loaderResult = parseResultLine(loader.stdout);
  const result = {
    ...serverLine,
    tasks: combineSeconds(loaderResult.seconds ?? [], cpuSeconds ?? []),
    metrics: {
      ...serverLine.metrics,
      ...loaderResult.metrics,
      loader_cpus: loaderLimits.cpus,
      loader_cpuset: loaderLimits.cpuset,
      loader_shared: loaderLimits.shared ?? null,
    },
    loader: loaderResult.loader,
  };
  const stderr = label('loader', loader.stderr) + label('server', server.stderr);
  return { ...base, exitCode: 0, stdout: `${JSON.stringify(result)}\n`, stderr };
}

/** The pair as a whole did not measure: aborted, past its deadline, or the server killed for memory. */
function describePairFailure({ server, loader, aborted, timedOut }) {
  const both = label('loader', loader?.stderr) + label('server', server.stderr);
  if (aborted) return { aborted: true, exitCode: null, stdout: '', stderr: both };
  if (timedOut) return { timedOut: true, exitCode: null, stdout: '', stderr: both };
  if (server.oomKilled)
    return { oomKilled: true, exitCode: server.exitCode, stdout: '', stderr: label('server', server.stderr) };
  return null;
}

/** One side ended without its result line (the one that caused it named last); null when both gave theirs. */
function describeSideFailure({ server, loader, serverEndedFirst, serverStoppedAfterLine }) {
  const failed = (exitCode, ...parts) => ({ exitCode, stdout: '', stderr: parts.join('') });
  if (serverEndedFirst && server.exitCode !== 0) {
    return {
      ...failed(server.exitCode, label('loader', loader?.stderr), label('server', server.stderr)),
      // Your start command never answered within its bound: not a crash, a service that was never there to load.
      notReady: server.exitCode === EXIT_CODES.ERR_SERVER_NOT_READY,
    };
  }
  if (!loader)
    return failed(server.exitCode ?? 1, label('server', server.stderr), '[loader] the load generator never started\n');
  if (loader.oomKilled)
    return failed(
      loader.exitCode ?? 137,
      label('server', server.stderr),
      label('loader', loader.stderr),
      "[loader] killed for memory: over the load generator's limit\n",
    );
  if (loader.exitCode !== 0 || !parseResultLine(loader.stdout)) {
    return failed(
      loader.exitCode || 1,
      label('server', server.stderr),
      label('loader', loader.stderr) || '[loader] printed no result line\n',
    );
  }
  // A server stopped after its line (its exit waited on work queued on its pool) measured its period whole.
  const serverDone = server.exitCode === 0 || serverStoppedAfterLine === true;
  if (!serverDone || !parseResultLine(server.stdout)) {
    return failed(
      server.exitCode || 1,
      label('loader', loader.stderr),
      label('server', server.stderr) || '[server] printed no result line after the measured period\n',
    );
  }
  return null;
}

/**
 * The measured period second by second, as tasks.csv rows: the loader's answers of each second (by due time, or send
 * time for a closed loop) beside the server container's CPU time in the same second of its own window. The two
 * windows open within milliseconds of each other (POST /__lab/start); an open loop's last answers come after its last
 * due second, so its seconds can outnumber the server's.
 */
export function combineSeconds(seconds, cpuSeconds) {
  return seconds.map((second, i) => ({
    task: second.second,
    start_ms: (second.second - 1) * 1000,
    end_ms: second.second * 1000,
    process: null,
    thread: null,
    requests: second.requests,
    p50_ms: second.p50_ms,
    p99_ms: second.p99_ms,
    max_ms: second.max_ms,
    cpu_ms: cpuSeconds[i] ?? null,
  }));
}

/** Every line prefixed with its container, so the error column says which one spoke. */
function label(role, text) {
  const lines = (text ?? '').split('\n').filter((line) => line.trim() !== '');
  return lines.map((line) => `[${role}] ${line}\n`).join('');
}
