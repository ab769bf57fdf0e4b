// Response times of one autocannon instance, exactly. autocannon's own histogram keeps whole
// milliseconds, so a fast route would read 0 ms; its `response` event carries the time as a
// fraction, which is kept here (8 bytes a response: 1.6 MB for 200 000 responses).

export function createLatencyRecorder() {
  let values = new Float64Array(4096);
  let count = 0;
  let sum = 0;
  return {
    record(ms) {
      if (count === values.length) {
        const grown = new Float64Array(values.length * 2);
        grown.set(values);
        values = grown;
      }
      values[count++] = ms;
      sum += ms;
    },
    /**
     * @returns {{ count: number, mean: number|null, p50: number|null, p90: number|null, p99: number|null, max:
     * number|null }}
     */
    summarize() {
      const sorted = values.slice(0, count).sort();
      return {
        count,
        mean: count > 0 ? sum / count : null,
        p50: percentile(sorted, 50),
        p90: percentile(sorted, 90),
        p99: percentile(sorted, 99),
        max: count > 0 ? sorted[count - 1] : null,
      };
    },
  };
}

/** Nearest-rank percentile of ascending values: the smallest value with at least p% of them at or below it. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}
