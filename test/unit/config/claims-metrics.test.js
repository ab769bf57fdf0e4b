import { COLUMN_TYPES, MEASURE_COLUMNS, RUN_METRICS } from '../../../runner/domain/columns.js';
import { claimableMetrics } from '../../../runner/config/check-claims.js';

test("RUN_METRICS (what a claim may name on any workload) are exactly runs.csv's numeric common columns", () => {
  expect(RUN_METRICS).toEqual(
    MEASURE_COLUMNS.filter((column) => !COLUMN_TYPES.text.has(column) && !COLUMN_TYPES.boolean.has(column)),
  );
});

test("a workload's numeric columns are claimable on it alone", () => {
  expect(claimableMetrics('http')).toEqual(expect.arrayContaining(['wall_ms', 'requests_per_sec', 'latency_p99_ms']));
  expect(claimableMetrics('http')).not.toContain('loader_cpuset');
  expect(claimableMetrics('pbkdf2')).not.toContain('requests_per_sec');
  expect(claimableMetrics('idle')).toContain('rss_mb');
});
