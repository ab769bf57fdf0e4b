// Response times in an HDR histogram (hdr-histogram-js): every response counted, kept in microseconds to 3
// significant digits (a value is off by at most 0.1%), in memory that does not grow with the count. autocannon's own
// histogram keeps whole milliseconds (a fast route would read 0); the open loop's times, measured from when each
// request was due, can reach seconds. Beside the whole window's histogram, one per second of it (by when the request
// was due or sent), so that warm-up and drift can be seen (the loader's `seconds`, tasks.csv).
import { build } from 'hdr-histogram-js';

const US_PER_MS = 1000;
// Per-second histograms are many and only read for their median, p99 and max: 2 digits (1%) keeps them small.
const SECOND_DIGITS = 2;

function buildHistogram(digits) {
  // 32-bit counts (recording is 8× faster than `packed`); auto-resize: no highest value to guess (a stalled server).
  return build({
    bitBucketSize: 32,
    numberOfSignificantValueDigits: digits,
    autoResize: true,
    lowestDiscernibleValue: 1,
  });
}

// A value below 1 µs is kept as 1 µs: a histogram has no bucket for zero.
const toMicros = (ms) => Math.max(1, Math.round(ms * US_PER_MS));
const fromMicros = (us) => us / US_PER_MS;

/**
 * @returns {{ record(ms: number): void, summarize(): LatencySummary, histogram: object }}
 * @typedef {{ count: number, mean: number|null, p50: number|null, p90: number|null, p99: number|null,
 *   p999: number|null, max: number|null }} LatencySummary
 */
export function createLatencyRecorder({ digits = 3 } = {}) {
  const histogram = buildHistogram(digits);
  let sum = 0;
  return {
    histogram,
    record(ms) {
      histogram.recordValue(toMicros(ms));
      sum += ms;
    },
    summarize() {
      return summarizeHistogram(histogram, sum);
    },
  };
}

/**
 * An HDR histogram's percentiles in ms; nulls when it is empty. HDR's value at a percentile is the highest value
 * equivalent (within the precision) to the nearest-rank one.
 * @returns {LatencySummary}
 */
export function summarizeHistogram(histogram, sum = null) {
  const count = histogram.totalCount;
  if (count === 0) return { count: 0, mean: null, p50: null, p90: null, p99: null, p999: null, max: null };
  const at = (p) => fromMicros(histogram.getValueAtPercentile(p));
  return {
    count,
    mean: sum === null ? fromMicros(histogram.mean) : sum / count,
    p50: at(50),
    p90: at(90),
    p99: at(99),
    p999: at(99.9),
    max: fromMicros(histogram.maxValue),
  };
}

/**
 * Response times by the second of the window they belong to (a request's due time for an open loop, its send time for
 * a closed one), for the per-second rows: how many were answered, and their median, p99 and slowest.
 */
export function createSecondSeries() {
  const seconds = [];
  return {
    /** @param {number} atMs  when the request was due (or sent), ms since the window opened */
    record(atMs, ms) {
      const index = Math.max(0, Math.floor(atMs / 1000));
      while (seconds.length <= index) seconds.push(null);
      seconds[index] ??= { histogram: buildHistogram(SECOND_DIGITS), sum: 0 };
      seconds[index].histogram.recordValue(toMicros(ms));
      seconds[index].sum += ms;
    },
    /**
     * @returns {{ second: number, requests: number, p50_ms: number|null, p99_ms: number|null, max_ms: number|null
     *   }[]}
     */
    summarize() {
      return seconds.map((entry, index) => {
        const summary = entry ? summarizeHistogram(entry.histogram, entry.sum) : summarizeHistogram({ totalCount: 0 });
        return {
          second: index + 1,
          requests: summary.count,
          p50_ms: summary.p50,
          p99_ms: summary.p99,
          max_ms: summary.max,
        };
      });
    },
  };
}
