// What writeReports adds for the answers, on the real default run (test/fixtures/results/pool-vs-cores, no claims):
// verdicts.csv, the Answers section above the summary, and line-chart data whose whiskers are the cell's one interval.
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { writeReports } from '../../../runner/report/write-reports.js';

const dir = join(mkdtempSync(join(tmpdir(), 'answers-')), 'pool-vs-cores');
cpSync(fileURLToPath(new URL('../../fixtures/results/pool-vs-cores', import.meta.url)), dir, { recursive: true });
writeReports(dir);

test('verdicts.csv: one step row per neighbouring pair of values, per combination of the other axes', () => {
  const rows = parse(readFileSync(join(dir, 'verdicts.csv'), 'utf8'), { columns: true });
  // cpus 1 → 2 at 2 workloads × 4 pool sizes; pool 1 → 2 → 4 → 8 at 2 workloads × 2 CPU limits.
  expect(rows).toHaveLength(8 + 12);
  expect(new Set(rows.map((row) => row.kind))).toEqual(new Set(['step']));
  expect(
    rows.find((row) => row.axis === 'uv_threadpool_size' && row.a === '1' && row.where === 'workload=argon2 cpus=2'),
  ).toMatchObject({
    b: '2',
    verdict: 'faster',
    family: '4',
    words: 'uv_threadpool_size 1 → 2 at workload=argon2 cpus=2: wall_ms −19% [−23%, −14%] (n 3/3), faster',
  });
});

test('report.md opens with the answers', () => {
  const report = readFileSync(join(dir, 'report.md'), 'utf8');
  expect(report.indexOf('## Answers')).toBeGreaterThan(0);
  expect(report.indexOf('## Answers')).toBeLessThan(report.indexOf('## Summary'));
  expect(report).toContain('- argon2 wall_ms: cpus moves it most');
});

test('report.html: numeric axes by value (log2 for the pool sizes 1–8), whiskers are the 95% CI of the centre, as in summary.csv', () => {
  const html = readFileSync(join(dir, 'report.html'), 'utf8');
  const data = JSON.parse(/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)[1]);
  const [line] = data.lines;
  expect(line).toMatchObject({
    xScale: 'log2',
    xValues: [1, 2, 4, 8],
    xTitle: 'uv_threadpool_size: libuv pool (threads), log₂ scale',
  });
  // pbkdf2 cpus=1 pool 1: runs 5724.286, 5938.974, 5682.601 → median 5724.286; the geometric mean's 95% CI, from
  // SciPy: exp(mean(ln x) ± t.ppf(0.975, 2) · stdev(ln x) / √3) = [5451.015017555573, 6130.688203006086].
  expect(line.series[0].values[0]).toBeCloseTo(5724.29, 1);
  expect(line.series[0].intervals[0][0]).toBeCloseTo(5451.0150176, 5);
  expect(line.series[0].intervals[0][1]).toBeCloseTo(6130.688203, 5);
  const summary = parse(readFileSync(join(dir, 'summary.csv'), 'utf8'), { columns: true, cast: true });
  const cell = summary.find((row) => row.workload === 'pbkdf2' && row.cpus === 1 && row.uv_threadpool_size === 1);
  expect([cell.wall_ms_ci95_low, cell.wall_ms_ci95_high]).toEqual([5451.02, 6130.69]);
  expect(cell.wall_ms_gmean).toBeCloseTo(5780.87, 2);
  expect(html.indexOf('id="answers"')).toBeLessThan(html.indexOf('id="heatmaps"'));
});
