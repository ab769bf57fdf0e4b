// Is the engine still there? A wait on a container (`POST /wait`) ends when the engine closes its
// socket (a local dockerd killed: at once), but not when it stops answering with the connection left
// open (a hung dockerd, a machine powered off or cut off the network): the run then waited out its
// whole timeout. So each engine is pinged every second, and counts as lost, aborting `signal`, when:
//  - it refused the connection twice in a row (the socket or port is gone: about 1–2 s), or
//  - nothing answered for LOST_AFTER_MS (a hung engine or a cut network: about 3.5–4.5 s).
// A loaded engine that answers slowly is not lost: one answer within PING_TIMEOUT_MS resets the clock.
import { pingEngine } from './client.js';

export const PING_EVERY_MS = 1000;
export const PING_TIMEOUT_MS = 1500;
export const LOST_AFTER_MS = 3000;
const REFUSED = new Set(['ECONNREFUSED', 'ENOENT', 'ECONNRESET', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * @param {{ ping(): Promise<unknown> }} docker
 * @param {object} [options]
 * @param {(reason: Error) => void} [options.onLost]
 * @returns {{ signal: AbortSignal, stop(): void }}  signal.reason is the Error that says why
 */
export function watchEngine(
  docker,
  {
    onLost = () => {},
    everyMs = PING_EVERY_MS,
    timeoutMs = PING_TIMEOUT_MS,
    lostAfterMs = LOST_AFTER_MS,
    now = Date.now,
  } = {},
) {
  const controller = new AbortController();
  let lastAnswer = now();
  let refusals = 0;
  let pinging = false;
  const lose = (message, failure) => {
    clearInterval(timer);
    const reason = new Error(message, { cause: failure });
    controller.abort(reason);
    onLost(reason);
  };
  const check = async () => {
    if (pinging || controller.signal.aborted) return;
    pinging = true;
    const failure = await pingEngine(docker, timeoutMs);
    pinging = false;
    if (controller.signal.aborted) return;
    if (!failure) {
      lastAnswer = now();
      refusals = 0;
      return;
    }
    refusals = REFUSED.has(failure.code) ? refusals + 1 : 0;
    if (refusals >= 2) lose(`it refused the connection (${failure.code})`, failure);
    else if (now() - lastAnswer >= lostAfterMs)
      lose(`no answer for ${Math.round((now() - lastAnswer) / 1000)} s (${failure.message})`, failure);
  };
  const timer = setInterval(check, everyMs);
  // The watchdog must never be what keeps the process alive.
  timer.unref();
  return {
    signal: controller.signal,
    stop: () => clearInterval(timer),
  };
}
