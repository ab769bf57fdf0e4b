import { fileURLToPath } from 'node:url';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { compareResults, formatComparison } from '../../runner/report/compare.js';
import { readResults } from '../../runner/results/read-results.js';

const fixture = (name) => fileURLToPath(new URL(`../fixtures/results/${name}`, import.meta.url));

function results(cells) {
  const runs = cells.flatMap(({ cell, workload = 'pbkdf2', cpus, values, metric = 'wall_ms' }) =>
    values.map((value, i) => ({ experiment: 'x', cell, repetition: i + 1, workload, cpus, status: 'ok', [metric]: value })));
  return { runs, tasks: [], info: null, axes: ['workload', 'cpus'] };
}

describe('compareResults', () => {
  const a = results([{ cell: 'same', cpus: 1, values: [100, 101, 99] }, { cell: 'faster', cpus: 2, values: [100, 102, 98] }, { cell: 'gone', cpus: 4, values: [1, 2] }]);
  const b = results([{ cell: 'same', cpus: 1, values: [100, 99, 101] }, { cell: 'faster', cpus: 2, values: [80, 81, 79] }, { cell: 'new', cpus: 8, values: [1, 2] }]);
  const comparison = compareResults(a, b);

  test('matches cells by id and compares each primary metric', () => {
    expect(comparison.rows.map((row) => [row.cell, row.metric, row.median_a, row.median_b])).toEqual([['same', 'wall_ms', 100, 100], ['faster', 'wall_ms', 100, 80]]);
    expect(comparison.onlyA.map((cell) => cell.cell)).toEqual(['gone']);
    expect(comparison.onlyB.map((cell) => cell.cell)).toEqual(['new']);
    expect(comparison.columns).toEqual(['cell', 'workload', 'cpus', 'metric', 'n_a', 'n_b', 'median_a', 'median_b', 'mean_a', 'mean_b', 'ratio', 'ratio_ci95_low', 'ratio_ci95_high', 'p_value', 'significance', 'verdict']);
  });

  test('ratio, interval, stars and a verdict in the direction of the metric', () => {
    const [same, faster] = comparison.rows;
    expect(same).toMatchObject({ ratio: 1, p_value: 1, significance: '', verdict: 'same' });
    expect(faster).toMatchObject({ ratio: 0.8, significance: '***', verdict: 'better' });
    expect(faster.ratio_ci95_low).toBeLessThan(0.8);
    expect(faster.ratio_ci95_high).toBeLessThan(1);
  });

  test('higher requests_per_sec is better', () => {
    const httpA = results([{ cell: 'h', workload: 'http', values: [1000, 1010, 990], metric: 'requests_per_sec' }]);
    const httpB = results([{ cell: 'h', workload: 'http', values: [800, 810, 790], metric: 'requests_per_sec' }]);
    const rows = compareResults(httpA, httpB).rows;
    expect(rows.map((row) => [row.metric, row.verdict])).toEqual([['requests_per_sec', 'worse'], ['latency_p99_ms', '']]);
  });

  test('prints both medians, the ratio with its interval, stars and the false-positive warning', () => {
    const text = formatComparison(comparison);
    expect(text).toMatch(/pbkdf2 cpus=2\s+wall_ms\s+100 ms\s+80 ms\s+0\.8 \[0\.\d+, 0\.\d+\]\s+\*\*\*/);
    expect(text).toContain("Welch's t-test): * p < 0.05, ** p < 0.01, *** p < 0.001");
    expect(text).toContain('with 2 comparisons');
    expect(text).toContain('Only in A');
  });
});

test('npm run compare -- DIR_A DIR_B prints the table and writes compare.csv', async () => {
  const out = join(mkdtempSync(join(tmpdir(), 'compare-')), 'compare.csv');
  const { stdout, exitCode } = await execa('node', ['scripts/compare.js', fixture('pool-vs-cores'), fixture('pool-vs-cores-b'), '--out', out], { cwd: fileURLToPath(new URL('../..', import.meta.url)) });
  expect(exitCode).toBe(0);
  // pool-vs-cores-b: every uv_threadpool_size=4 cell × 0.8, argon2 cpus=1 pool 8 × 1.25
  expect(stdout).toMatch(/argon2 cpus=1 uv_threadpool_size=4\s+wall_ms\s+3121 ms\s+2497 ms\s+0\.8 \[[\d.]+, [\d.]+\]\s+\*\*\*/);
  const csv = readFileSync(out, 'utf8').split('\r\n');
  expect(csv[0]).toBe('cell,workload,cpus,cpuset,uv_threadpool_size,workers,cluster,node,metric,n_a,n_b,median_a,median_b,mean_a,mean_b,ratio,ratio_ci95_low,ratio_ci95_high,p_value,significance,verdict');
  // Three of the four 20% gains are significant; pbkdf2 cpus=2 pool 4 (cv 10%, n = 3) gets p = 0.055: honest, not a bug.
  expect(csv.filter((line) => line.endsWith(',better'))).toHaveLength(3);
  expect(csv.find((line) => line.startsWith('4d90ff9948'))).toMatch(/,0\.8,[\d.]+,1\.0\d+,0\.05\d+,,same$/);
  expect(csv.filter((line) => line.includes(',worse'))).toHaveLength(1);
  expect(readResults(fixture('pool-vs-cores-b')).runs).toHaveLength(48);
});

test('compare with a wrong argument count exits 2 with the usage', async () => {
  const { stderr, exitCode } = await execa('node', ['scripts/compare.js', fixture('pool-vs-cores')], { reject: false, cwd: fileURLToPath(new URL('../..', import.meta.url)) });
  expect(exitCode).toBe(2);
  expect(stderr).toContain('expected two results folders, found 1');
});
