// One interval per question, on every results folder of the fixtures (real runs copied from the published ones, and
// synthetic ones): a cell's interval is the 95% CI of its centre wherever a page shows one (summary.csv,
// report.md, report.html's tables and whiskers, the model table), and for a positive metric it never goes below 0.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readResults } from '../../../runner/results/read-results.js';
import { buildReport } from '../../../runner/report/build-report.js';
import { renderMarkdown } from '../../../runner/report/markdown.js';
import { renderHtml } from '../../../runner/report/html.js';
import { buildModelTables } from '../../../runner/report/model-table.js';
import { centreInterval } from '../../../runner/stats/ratio.js';
import { sampleOf } from '../../../runner/cells/cell.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const FOLDERS = ['test/fixtures/results'].flatMap((parent) =>
  readdirSync(join(ROOT, parent), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(ROOT, parent, entry.name, 'runs.csv')))
    .map((entry) => `${parent}/${entry.name}`),
);

// A range as the pages print one, "low–high", whose low end is negative: "-104.5–3892".
const NEGATIVE_RANGE = /(?<![\w.])[-−]\d+(?:\.\d+)?(?:e[-+]?\d+)?\s*–/;

test('the folders are there to check', () => {
  expect(FOLDERS.length).toBeGreaterThanOrEqual(10);
});

describe.each(FOLDERS)('%s', (folder) => {
  const results = readResults(join(ROOT, folder));
  const report = buildReport(results);

  test("each cell's interval is the centre interval of its positive sample, above 0, in summary.csv too", () => {
    for (const cell of report.summary.cells) {
      for (const [metric, stats] of Object.entries(cell.stats)) {
        const sample = sampleOf(cell, metric);
        if (sample.length < 2 || sample.some((value) => value <= 0)) continue;
        const expected = centreInterval(sample);
        expect([stats.ci95_low, stats.ci95_high]).toEqual([expected.low, expected.high]);
        expect(stats.ci95_low).toBeGreaterThan(0);
        const row = report.summary.rows.find((each) => each.cell === cell.cell);
        expect(row[`${metric}_ci95_low`]).toBeGreaterThan(0);
      }
    }
  });

  test('report.md and report.html print no range below 0', () => {
    const markdown = renderMarkdown(report);
    const html = renderHtml(report);
    expect(markdown.split('\n').filter((line) => NEGATIVE_RANGE.test(line))).toEqual([]);
    const page = html.replace(/<script[\s\S]*?<\/script>/g, '');
    expect(page.split('\n').filter((line) => NEGATIVE_RANGE.test(line))).toEqual([]);
  });

  test('the whiskers and the model table use that same interval', () => {
    const html = renderHtml(report);
    const data = JSON.parse(/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)[1]);
    const cells = new Map(report.summary.cells.map((cell) => [cell.cell, cell]));
    report.linePivots.forEach((pivot, index) => {
      pivot.cellIds.forEach((line, i) =>
        line.forEach((id, j) => {
          const stats = cells.get(id)?.stats[pivot.metric];
          const whisker = data.lines[index].series[j].intervals[i];
          expect(whisker).toEqual(stats && stats.ci95_low !== null ? [stats.ci95_low, stats.ci95_high] : null);
          if (whisker) expect(whisker[0]).toBeGreaterThanOrEqual(0);
        }),
      );
    });
    for (const table of buildModelTables(report)) {
      for (const row of table.rows) {
        // A modelled column that is not a primary metric has no summary statistics: the same interval, computed here.
        const expected = centreInterval(sampleOf(cells.get(row.cell), row.metric));
        expect(row.interval).toEqual(expected);
        if (row.interval) expect(row.interval.low).toBeGreaterThan(0);
      }
    }
  });
});
