import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { parse } from 'csv-parse/sync';
import { writeReports } from '../../../runner/report/write-reports.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const fixture = (name) => fileURLToPath(new URL(`../../fixtures/results/${name}`, import.meta.url));

function copyFixture(name) {
  const dir = join(mkdtempSync(join(tmpdir(), 'report-')), name);
  cpSync(fixture(name), dir, { recursive: true });
  return dir;
}

describe('writeReports on the real default run', () => {
  const dir = copyFixture('pool-vs-cores');
  const { files } = writeReports(dir);

  test('writes summary.csv, a pivot per workload, results.json, report.md and report.html next to the CSVs (advice.csv: the matrix has a knob)', () => {
    expect(files.map((file) => basename(file))).toEqual([
      'summary.csv',
      'verdicts.csv',
      'advice.csv',
      'pivot-pbkdf2-wall_ms_median-uv_threadpool_size-by-cpus.csv',
      'pivot-argon2-wall_ms_median-uv_threadpool_size-by-cpus.csv',
      'results.json',
      'report.md',
      'report.html',
    ]);
    expect(readFileSync(join(dir, 'summary.csv'), 'utf8').split('\r\n')).toHaveLength(16 + 2);
  });

  test("results.json holds summary.csv's cells with their statistics, grouped, and verdicts.csv's rows", () => {
    const document = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    const summary = parse(readFileSync(join(dir, 'summary.csv'), 'utf8'), { columns: true });
    const verdicts = parse(readFileSync(join(dir, 'verdicts.csv'), 'utf8'), { columns: true });
    expect(document).toMatchObject({
      format: 1,
      experiment: 'pool-vs-cores',
      runs: { total: 48, measured: 48, failed: 0 },
    });
    expect(document.cells.map((cell) => cell.cell)).toEqual(summary.map((row) => row.cell));
    document.cells.forEach((cell, index) => {
      const row = summary[index];
      expect(cell.values).toEqual({
        workload: row.workload,
        cpus: Number(row.cpus),
        uv_threadpool_size: Number(row.uv_threadpool_size),
      });
      expect(cell.n).toBe(Number(row.n));
      expect(cell.metrics.wall_ms).toMatchObject({
        unit: 'ms',
        better: 'lower',
        median: Number(row.wall_ms_median),
        ci95_low: Number(row.wall_ms_ci95_low),
        ci95_high: Number(row.wall_ms_ci95_high),
      });
      expect(cell.speedup).toBe(Number(row.speedup));
    });
    const rows = [...document.verdicts.claims, ...document.verdicts.steps];
    expect(rows.map((row) => [row.kind, row.verdict, row.words])).toEqual(
      verdicts.map((row) => [row.kind, row.verdict, row.words]),
    );
  });

  test('the Markdown report has the pivot table ready to paste', () => {
    const markdown = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(markdown).toContain(
      '| uv_threadpool_size ↓ / cpus → | 1 | 2 |\n| --- | --- | --- |\n| 1 | 5724 | 5858 |\n| 2 | 5887 | 3037 |',
    );
    expect(markdown).toContain('  - pbkdf2: 89829806d1 (pbkdf2 cpus=1 uv_threadpool_size=1), CPU capacity 1');
  });

  test('the HTML report is one file that fetches nothing: Chart.js inline, a CSP that forbids loading', () => {
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html).toContain('Chart.js v4');
    expect(html).toContain("default-src 'none'");
    expect(html).not.toMatch(/<(script|img|link)[^>]+(src|href)="(?!data:)/);
    expect(html.match(/<svg /g)).toHaveLength(2);
  });

  test('regenerating after a config change removes pivots that no longer apply', () => {
    writeFileSync(join(dir, 'pivot-stale.csv'), 'x\r\n');
    writeReports(dir, { pivots: [{ rows: 'cpus', columns: 'uv_threadpool_size' }] });
    expect(existsSync(join(dir, 'pivot-stale.csv'))).toBe(false);
    expect(existsSync(join(dir, 'pivot-pbkdf2-wall_ms_median-cpus-by-uv_threadpool_size.csv'))).toBe(true);
  });
});

describe('writeReports with http cells, failures and text that must stay text (synthetic)', () => {
  const dir = copyFixture('http-mixed');
  writeReports(dir);
  const html = readFileSync(join(dir, 'report.html'), 'utf8');
  const markdown = readFileSync(join(dir, 'report.md'), 'utf8');

  test('escapes what the experiment says in HTML and Markdown', () => {
    expect(html).toContain('&lt;b&gt;not bold&lt;/b&gt;');
    expect(html).not.toContain('<b>not bold');
    expect(markdown).toContain('\\<b\\>not bold\\</b\\>');
  });

  test('lists the failed run and the outliers, and pivots both http metrics', () => {
    expect(markdown).toContain('| 3 |  | timeout | killed after 120 s |');
    expect(markdown).toContain('## Outliers');
    expect(markdown).toContain('### http: requests_per_sec_median (req/s)');
    expect(markdown).toContain('### http: latency_p99_ms_median (ms)');
  });

  test('the summary CSV keeps the env axis spreadsheet-safe', () => {
    expect(readFileSync(join(dir, 'summary.csv'), 'utf8')).toContain(",'--max-semi-space-size=64,");
  });

  test('the HTML has a latency chart and the waves data without warm-up tasks', () => {
    expect(html).toContain('id="latency-0"');
    const data = JSON.parse(html.match(/<script type="application\/json" id="report-data">(.*?)<\/script>/s)[1]);
    expect(data.waves.runs.map((run) => run.label)[0]).toMatch(
      /^pbkdf2 cpus=1 workers=0 .* · repetition 1 · wall \d+ ms$/,
    );
    expect(data.latency.labels).toEqual(['p50', 'p90', 'p99', 'p99.9', 'max']);
    expect(data.latency.panels).toHaveLength(1);
  });
});

describe('node-threads-lab report DIR', () => {
  test('rebuilds the reports from the folder alone and says what it wrote', async () => {
    const dir = copyFixture('pool-vs-cores');
    const { stdout, exitCode } = await execa(
      'node',
      ['runner/cli.js', 'report', dir, '--baseline', 'cpus=2,uv_threadpool_size=1'],
      { cwd: ROOT },
    );
    expect(exitCode).toBe(0);
    expect(stdout).toContain(`wrote ${join(dir, 'report.html')}`);
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toContain(
      '  - pbkdf2: 7d0acb1a1b (pbkdf2 cpus=2 uv_threadpool_size=1), CPU capacity 2',
    );
  });

  test('a folder without runs.csv is a usage error', async () => {
    const { stderr, exitCode } = await execa('node', ['runner/cli.js', 'report', tmpdir()], {
      cwd: ROOT,
      reject: false,
    });
    expect(exitCode).toBe(2);
    expect(stderr).toContain('has no runs.csv');
  });
});
