// The capacity model beside the measurements in every report: summary.csv's model_<metric>, the "Model vs
// measured" section of report.md and report.html, the dashed line in report.html's chart data and in the SVG
// charts of docs/findings.md.
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeReports } from '../../../runner/report/write-reports.js';
import { renderSvgChart } from '../../../runner/report/svg-chart.js';
import { generateFindings } from '../../../scripts/findings.js';
import { model } from '../../../runner/index.js';
import { formatModelMarkdown } from '../../../runner/commands/model.js';

const fixture = (name) => fileURLToPath(new URL(`../../fixtures/results/${name}`, import.meta.url));
const at = (path) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));

function writeFixtureReports(name) {
  const dir = join(mkdtempSync(join(tmpdir(), 'model-report-')), name);
  cpSync(fixture(name), dir, { recursive: true });
  writeReports(dir);
  return dir;
}

describe('reports of the real default run (pool-vs-cores)', () => {
  const dir = writeFixtureReports('pool-vs-cores');
  const read = (file) => readFileSync(join(dir, file), 'utf8');

  test('summary.csv: model_wall_ms in every row', () => {
    const [header, ...rows] = read('summary.csv')
      .trim()
      .split('\n')
      .map((line) => line.split(','));
    const column = header.indexOf('model_wall_ms');
    expect(column).toBeGreaterThan(0);
    expect(rows.every((row) => Number(row[column]) > 0)).toBe(true);
  });

  test('report.md: a Model vs measured table per workload, its calibration and the argon2 cell that falls short', () => {
    const markdown = read('report.md');
    const section = markdown.slice(markdown.indexOf('## Model vs measured'), markdown.indexOf('## Pivot tables'));
    expect(section).toContain('### pbkdf2');
    expect(section).toMatch(/- Calibration: CPU time of one call \d+ ms \(12 runs in 4 cells\)/);
    expect(section).toMatch(/^\| 2 \| 1 \| wall_ms \(ms\) \| 3 \| 1903 \| .* \| short of the model \|$/m);
  });

  test("report.html: the same table, and a dashed model series beside each line chart's series", () => {
    const html = read('report.html');
    expect(html).toContain('<section id="model"><h2>Model vs measured</h2>');
    const data = JSON.parse(
      /<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)[1].replace(/\\u003c/g, '<'),
    );
    const series = data.lines[0].series;
    expect(series.map((line) => line.model.length)).toEqual(series.map((line) => line.values.length));
    expect(series.every((line) => line.model.every((value) => value > 0))).toBe(true);
  });
});

test('a folder without run.json parameters (synthetic http-mixed) reports as before, with empty model columns and no model section', async () => {
  const dir = writeFixtureReports('http-mixed');
  expect(readFileSync(join(dir, 'report.md'), 'utf8')).not.toContain('## Model vs measured');
  expect(formatModelMarkdown(await model(fixture('http-mixed'))).at(-1)).toMatch(/^\(no model/);
});

describe('the SVG charts of findings.md', () => {
  const points = [
    [1, 10, 'a'],
    [2, 6, 'a'],
    [1, 20, 'b'],
    [2, 12, 'b'],
  ].map(([x, y, series]) => ({ x, y, series }));

  test('a model draws a dashed line per series in its colour, and the key says so; without one, nothing changes', () => {
    const model = [
      [1, 9, 'a'],
      [2, 5, 'a'],
      [1, 18, 'b'],
      [2, 30, 'b'],
    ].map(([x, y, series]) => ({ x, y, series }));
    const svg = renderSvgChart({ title: 't', xLabel: 'x', yLabel: 'y', seriesLabel: 's', points, model });
    const dashed = svg.match(/<polyline [^>]*stroke-dasharray="6 4"\/>/g);
    expect(dashed).toHaveLength(2);
    expect(dashed[0]).toContain('stroke="#1f77b4"');
    expect(svg).toContain('>dashed: model</text>');
    // The y axis makes room for the model's 30.
    expect(svg).toContain('>30</text>');
    const plain = renderSvgChart({ title: 't', xLabel: 'x', yLabel: 'y', seriesLabel: 's', points });
    expect(plain).not.toContain('stroke-dasharray');
    expect(plain).not.toContain('dashed: model');
  });

  test('findings:chart of pbkdf2-waves carries the model line', async () => {
    const { charts, text } = await generateFindings({
      resultsDir: at('test/fixtures/results'),
      configFile: at('published-experiments.yml'),
      linkBase: at('docs'),
      source: '<!-- findings:chart pbkdf2-waves metric=wall_ms x=uv_threadpool_size -->',
    });
    const [svg] = [...charts.values()];
    expect(svg.match(/stroke-dasharray="6 4"/g)).toHaveLength(1);
    expect(text).toContain('dashed the capacity model');
  });
});
