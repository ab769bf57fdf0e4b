// The post's own numbers tested here (runner/verdicts/judge-figures.js), on the committed idle-memory folder
// (test/fixtures/results/idle-memory: Node 24, 0–16 idle threads): a figure at a cell, one per added thread, the band
// around the post's figure, and where the figure stands read before its verdict.
import { fileURLToPath } from 'node:url';
import { readResults } from '../../../runner/results/read-results.js';
import { summarizeCells } from '../../../runner/report/summary.js';
import { judgeFigures } from '../../../runner/verdicts/judge-figures.js';
import { intervalOfDifference, intervalOfLevel } from '../../../runner/stats/level-interval.js';
import { sampleOf } from '../../../runner/cells/cell.js';

const folder = readResults(fileURLToPath(new URL('../../fixtures/results/idle-memory', import.meta.url)));
const { cells } = summarizeCells(folder);
const cellAt = (workers) => cells.find((cell) => cell.values.workers === workers && cell.values.cluster === 0);
const claim = (figures, conditions) => ({
  says: 'threads',
  metric: 'rss_mb',
  compare: { workers: [0, 16] },
  where: { cluster: 0 },
  expect: { ratio: 3.86, within: 0.15 },
  figures,
  ...(conditions ? { conditions } : {}),
});

test("a figure per added thread is (mean at b − mean at a) ÷ (b − a), Welch's interval, against the post's MB", () => {
  const [row] = judgeFigures(
    cells,
    folder.axes,
    claim([{ quote: '약 6MB', what: 'a thread', per: { workers: [0, 16] }, differs: 'x' }]),
  );
  const step = intervalOfDifference(sampleOf(cellAt(0), 'rss_mb'), sampleOf(cellAt(16), 'rss_mb'));
  expect(row.post).toBe(6);
  expect(row.here).toBeCloseTo(step.estimate / 16, 10);
  expect([row.low, row.high]).toEqual([step.low / 16, step.high / 16]);
  expect(row.ratio).toBeCloseTo(row.here / 6, 10);
  expect(row.n).toEqual([5, 5]);
  // Here each thread costs more than 6.6 MiB: refuted against ±10% of the post's figure.
  expect(row.ratio_low).toBeGreaterThan(1.1);
  expect([row.verdict, row.class]).toEqual(['refuted', 'refuted']);
});

test("a figure at a cell is its geometric mean with a t interval on the logs; the post's KB are KiB", () => {
  const [row] = judgeFigures(
    cells,
    folder.axes,
    claim([{ quote: '31,836 KB', what: 'bare', at: { workers: 0 }, differs: 'x' }]),
  );
  const level = intervalOfLevel(sampleOf(cellAt(0), 'rss_mb'));
  expect(row.post).toBeCloseTo(31836 / 1024, 10);
  expect(row.here).toBeCloseTo(level.estimate, 10);
  expect(row.where).toBe('');
  // A band wide enough holds; one it straddles is inconclusive.
  const wide = judgeFigures(
    cells,
    folder.axes,
    claim([{ quote: '31,836 KB', what: 'bare', at: { workers: 0 }, differs: 'x', within: 0.9 }]),
  );
  expect(wide[0].verdict).toBe('holds');
});

test("outside the post's conditions (its Node.js 16), a figure is outside whatever its verdict; not comparable too", () => {
  const figure = { quote: '약 6MB', what: 'a thread', per: { workers: [0, 16] }, differs: 'x' };
  const [outside] = judgeFigures(cells, folder.axes, claim([figure], { node: [16] }));
  expect([outside.verdict, outside.class, outside.conditions_unmet]).toEqual([
    'refuted',
    "outside the post's conditions",
    ["node 24 (the post's: 16)"],
  ]);
  const [wide] = judgeFigures(cells, folder.axes, claim([{ ...figure, within: 0.9 }], { node: [16] }));
  expect([wide.verdict, wide.class]).toEqual(['holds', "outside the post's conditions"]);
  const [inside] = judgeFigures(cells, folder.axes, claim([{ ...figure, within: 0.9 }], { node: [24] }));
  expect([inside.verdict, inside.class]).toEqual(['holds', 'holds']);
  const [other] = judgeFigures(cells, folder.axes, { ...claim([figure]), not_comparable: 'not the quantity' });
  expect(other.class).toBe('not comparable');
});
