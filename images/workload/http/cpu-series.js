// The server container's CPU time second by second over the measured period, beside the load generator's answers
// per second (tasks.csv): CPU time per response second by second, and the warm-up or drift a whole-period figure
// hides. The cgroup's counter covers every process and thread of the container, so one reader in the primary is
// enough whatever the cluster and pool. A reading runs on the primary's event loop, which may be busy with a request:
// each second's figure is scaled by the time that really passed between its readings.
import { readClockMs } from '../clock.js';
import { readCgroupSnapshot } from '../probe/cgroup.js';

const SECOND_MS = 1000;

/**
 * @param {{ readCpuMs?: () => number|null, now?: () => number }} [options]
 * @returns {{ stop(): (number|null)[] }}  stop: CPU ms of each second of the period (the last one scaled to a whole
 *   second), or [] when the cgroup has no CPU counter
 */
export function startCpuSeries({ readCpuMs = () => readCgroupSnapshot().totalMs, now = readClockMs } = {}) {
  const readings = [{ at: now(), cpu: readCpuMs() }];
  const timer = setInterval(() => readings.push({ at: now(), cpu: readCpuMs() }), SECOND_MS);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      readings.push({ at: now(), cpu: readCpuMs() });
      return toPerSecond(readings);
    },
  };
}

/** Readings ({ at, cpu } in ms) → CPU ms per second of wall time between consecutive readings. */
export function toPerSecond(readings) {
  if (readings.some((reading) => reading.cpu === null || reading.cpu === undefined)) return [];
  return readings.slice(1).map((reading, i) => {
    const wallMs = reading.at - readings[i].at;
    return wallMs > 0 ? ((reading.cpu - readings[i].cpu) * SECOND_MS) / wallMs : null;
  });
}
