// What report.html's charts are built from: which axes are log2, which run the waves chart opens on, and
// small multiples when a chart would have more series than colours.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chooseAxisScale } from '../../../runner/report/axis-scale.js';
import { chooseWavesRun, countWaves, scoreWaves } from '../../../runner/report/waves.js';
import { MAX_SERIES, splitPanels } from '../../../runner/report/chart-panels.js';
import { readResults } from '../../../runner/results/read-results.js';
import { buildReport } from '../../../runner/report/build-report.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const reportOf = (folder) => buildReport(readResults(join(ROOT, folder)));

test('log2 for powers of two (pool sizes, 0.5/1/2 CPUs) or a span of 8×; linear for other numbers; text as categories', () => {
  expect(
    [
      [1, 2, 4, 8, 32],
      [0.5, 1, 2],
      [1, 4, 8],
      [1, 3, 10],
    ].map(chooseAxisScale),
  ).toEqual(['log2', 'log2', 'log2', 'log2']);
  expect(
    [
      [1, 2, 3, 4],
      [0.5, 1, 1.5, 2],
      [0, 1, 2, 4],
      [1, 2],
      [1, 2, 4, 6],
    ].map(chooseAxisScale),
  ).toEqual(['linear', 'linear', 'linear', 'linear', 'linear']);
  expect([['0', '0-1'], [1, 'x'], []].map(chooseAxisScale)).toEqual(['category', 'category', 'category']);
});

describe('waves', () => {
  // 16 tasks submitted at 0 that end in groups of `size`, each group 400 ms after the last, with a little noise.
  const run = (size, count = 16) => ({
    tasks: Array.from({ length: count }, (_, i) => ({ start: 0, end: 400 * (Math.floor(i / size) + 1) + (i % 3) })),
  });

  test('counts the groups tasks end in', () => {
    expect(countWaves(run(4).tasks)).toEqual([4, 4, 4, 4]);
    expect(countWaves(run(1).tasks)).toHaveLength(16);
    expect(countWaves(run(16).tasks)).toEqual([16]);
    expect([
      scoreWaves([4, 4, 4, 4]),
      scoreWaves([8, 8]),
      scoreWaves(Array(16).fill(1)),
      scoreWaves([16]),
      scoreWaves([1, 4, 4, 7]),
    ]).toEqual([4, 2, 1, 0, 2]);
  });

  test('the chart opens on the run with the clearest waves: 4 waves of 4 over 2 of 8, 16 of 1 and 1 of 16', () => {
    expect(chooseWavesRun([run(1), run(16), run(8), run(4), run(2)])).toBe(3);
  });

  test('on the real folders: the pool of 4 at 2 CPUs (pbkdf2), the pool of 8 (argon2, 32 hashes: 4 waves of 8)', () => {
    const shown = (folder) => {
      const { waves } = reportOf(folder);
      return waves[
        chooseWavesRun(
          waves.map((each) => ({ tasks: each.tasks.map((task) => ({ start: task.start_ms, end: task.end_ms })) })),
        )
      ].label;
    };
    expect(shown('test/fixtures/results/pool-vs-cores')).toBe('pbkdf2 cpus=2 uv_threadpool_size=4');
    expect(shown('test/fixtures/results/pbkdf2-waves')).toBe('pbkdf2 cpus=2 uv_threadpool_size=4');
    // At 1 CPU or at 2, whichever run's waves came out cleanest.
    expect(shown('test/fixtures/results/argon2-pool-32')).toMatch(/^argon2 cpus=[12] uv_threadpool_size=8$/);
  });
});

describe('small multiples past 8 series', () => {
  const grid = (cpus, workers) =>
    cpus.flatMap((c) => workers.map((w) => ({ cell: `c${c}w${w}`, values: { cpus: c, workers: w } })));

  test('16 cells of cpus × workers: one panel per cpus value, a workers series in the same colour in each', () => {
    const { axis, panels, labelOf, colourOf } = splitPanels(grid([0.5, 1, 1.5, 2], [1, 2, 3, 4]), ['cpus', 'workers']);
    expect(axis).toBe('cpus');
    expect(panels.map((panel) => panel.title)).toEqual(['cpus=0.5', 'cpus=1', 'cpus=1.5', 'cpus=2']);
    expect(panels.every((panel) => panel.cells.length <= MAX_SERIES)).toBe(true);
    expect(panels.map((panel) => panel.cells.map(labelOf))).toEqual(
      Array(4).fill(['workers=1', 'workers=2', 'workers=3', 'workers=4']),
    );
    expect(panels.map((panel) => panel.cells.map(colourOf))).toEqual(Array(4).fill([0, 1, 2, 3]));
  });

  test('8 series or fewer stay one chart; when no axis cuts them small enough, one chart of distinct colours', () => {
    expect(splitPanels(grid([1, 2], [1, 2, 3, 4]), ['cpus', 'workers'])).toMatchObject({
      axis: null,
      panels: [{ title: '' }],
    });
    const wide = splitPanels(
      grid(
        [1, 2],
        Array.from({ length: 10 }, (_, i) => i),
      ),
      ['cpus', 'workers'],
    );
    expect(wide.axis).toBe(null);
    expect(new Set(wide.panels[0].cells.map(wide.colourOf)).size).toBe(20);
  });

  test('the published http matrix (16 cells) gets 4 panels in report.html', () => {
    const { latency } = JSON.parse(
      /<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(
        renderOf('test/fixtures/results/http-cores-threads'),
      )[1],
    );
    expect(latency.axis).toBe('cpus');
    expect(latency.panels.map((panel) => panel.series.length)).toEqual([4, 4, 4, 4]);
  });
});

let renderHtml;
beforeAll(async () => {
  ({ renderHtml } = await import('../../../runner/report/html.js'));
});
function renderOf(folder) {
  return renderHtml(reportOf(folder));
}
