// The pure parts behind findings.md's figures: the SVG chart (numeric axes spaced by value, every run a dot)
// and the waves of task completions.
import { renderSvgChart } from '../../../runner/report/svg-chart.js';
import { splitWaves, summarizeWaves, describeTaskOrder } from '../../../runner/report/task-order.js';

const xOf = (svg, label) =>
  Number(new RegExp(`<text x="([\\d.]+)" y="[\\d.]+" text-anchor="middle">${label}</text>`).exec(svg)[1]);

describe('renderSvgChart', () => {
  const chart = (xs, extra = {}) =>
    renderSvgChart({ title: 't', xLabel: 'x', yLabel: 'y', points: xs.map((x, i) => ({ x, y: 10 + i })), ...extra });

  test('a numeric axis is spaced by value: 0.5, 1, 1.5, 2 evenly, 1 → 2 two thirds of 0.5 → 2', () => {
    const svg = chart([0.5, 1, 1.5, 2]);
    const [a, b, c, d] = [0.5, 1, 1.5, 2].map((v) => xOf(svg, v));
    expect(b - a).toBeCloseTo(c - b, 1);
    expect(d - b).toBeCloseTo((2 / 3) * (d - a), 1);
    expect(svg).not.toContain('log scale');
  });

  test('values spanning 8× or more go on a log2 scale, and the axis says so', () => {
    const svg = chart([1, 2, 4, 8, 32]);
    const [one, two, four] = [1, 2, 4].map((v) => xOf(svg, v));
    expect(two - one).toBeCloseTo(four - two, 1);
    expect(svg).toContain('x (log scale)');
  });

  test('text values are categories; every point is a dot; each series has a legend entry and a median bar per x', () => {
    const points = [
      ['0', 1, 'a'],
      ['0', 3, 'a'],
      ['0-1', 2, 'a'],
      ['0', 5, 'b'],
      ['0-1', 6, 'b'],
    ].map(([x, y, series]) => ({ x, y, series }));
    const svg = renderSvgChart({ title: 'T & <U>', xLabel: 'cpuset', yLabel: 'req/s', seriesLabel: 'workers', points });
    expect(svg.match(/<circle /g)).toHaveLength(5);
    expect(svg).toContain('>workers a</text>');
    expect(svg).toContain('>workers b</text>');
    expect(svg.match(/stroke-width="3"/g)).toHaveLength(2 + 4);
    expect(svg).toContain('T &amp; &lt;U&gt;');
    expect(
      renderSvgChart({ title: 'T & <U>', xLabel: 'cpuset', yLabel: 'req/s', seriesLabel: 'workers', points }),
    ).toBe(svg);
  });
});

describe('waves of completions', () => {
  test('one at a time every task is its own wave (a slow first one too); in fours, waves of four; all at once, one wave; a split wave shows', () => {
    expect(splitWaves([100, 200, 300, 400])).toEqual([1, 1, 1, 1]);
    // The first completion carries start-up: it sets no scale.
    expect(splitWaves([786, 951, 1098, 1263])).toEqual([1, 1, 1, 1]);
    expect(splitWaves([400, 401, 402, 403, 800, 801, 802, 803])).toEqual([4, 4]);
    expect(splitWaves([1202, 1228, 1284, 1300])).toEqual([4]);
    expect(splitWaves([250, 401, 402, 403, 800, 801, 802, 803])).toEqual([1, 3, 4]);
    expect(splitWaves([])).toEqual([]);
  });

  test('per run from tasks.csv rows (warm-ups left out), then the patterns with their counts', () => {
    const tasks = [
      ...[100, 101, 200, 201].map((end_ms, task) => ({ cell: 'c', repetition: 1, task, end_ms, warmup: false })),
      ...[100, 101, 200, 201].map((end_ms, task) => ({ cell: 'c', repetition: 2, task, end_ms, warmup: false })),
      ...[40, 101, 200, 201].map((end_ms, task) => ({ cell: 'c', repetition: 3, task, end_ms, warmup: false })),
      { cell: 'c', repetition: 0, task: 0, end_ms: 5, warmup: true },
    ];
    const runs = describeTaskOrder(tasks);
    expect(runs.map((run) => run.repetition)).toEqual([1, 2, 3]);
    expect(summarizeWaves(runs)).toBe('2+2 ×2, 1+1+2 ×1');
  });
});
