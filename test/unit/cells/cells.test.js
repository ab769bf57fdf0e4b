// The cell's one home (runner/cells/): its shape from rows, its axes in runs.csv's order, the budget axes, and a
// claim's pairs, as the rounds, the verdicts and the report all read them.
import { BUDGET_AXES, listAxes, listBudgetAxes } from '../../../runner/cells/axes.js';
import { buildCell, countStatuses } from '../../../runner/cells/cell.js';
import { pairClaimCells } from '../../../runner/cells/claim-pairs.js';

const row = (cell, repetition, extra = {}) => ({
  cell,
  repetition,
  status: 'ok',
  warmup: false,
  wall_ms: 10,
  ...extra,
});

test('buildCell: the measured runs, the disturbed ok runs apart, the delivery, the memory limit, the statuses without warm-ups', () => {
  const rows = [
    row('a', 0, { warmup: true }),
    row('a', 1),
    row('a', 2, { disturbed: true }),
    row('a', 3, { status: 'oom', wall_ms: null }),
    row('b', 1),
  ];
  const limits = { memoryBytes: 512 * 2 ** 20 };
  const cell = buildCell({ cell: 'a', values: { workload: 'pbkdf2', cpus: 1 }, limits }, rows);
  expect(cell).toEqual({
    cell: 'a',
    values: { workload: 'pbkdf2', cpus: 1 },
    workload: 'pbkdf2',
    memoryMb: 512,
    runs: [rows[1]],
    disturbedRuns: [rows[2]],
    // No host readings in these rows: nothing the host failed to give (domain/delivery.js).
    delivery: {
      delivered: true,
      reason: null,
      short: false,
      share: null,
      cpus: null,
      got: null,
      runs: 0,
      hostCpus: null,
    },
    statuses: { ok: 2, oom: 1 },
  });
  expect(buildCell({ cell: 'a', values: {} }, rows, { keepDisturbed: true }).runs).toEqual([rows[1], rows[2]]);
  // A plan's cell names its workload; runs.csv's rows do when the values do not.
  expect(buildCell({ cell: 'b', values: {}, workload: 'sum' }, rows).workload).toBe('sum');
  expect(buildCell({ cell: 'b', values: {} }, [row('b', 1, { workload: 'idle' })]).workload).toBe('idle');
  expect(countStatuses(rows)).toEqual({ ok: 3, oom: 1 });
});

test("listAxes: built-in axes in runs.csv's order, then environment-variable axes sorted", () => {
  const cells = [{ values: { UV_X: 1, workers: 2, cpus: 1, workload: 'sum' } }, { values: { NODE_Y: 'a', cpus: 2 } }];
  const axes = listAxes({ cells });
  expect(axes.slice(-2)).toEqual(['NODE_Y', 'UV_X']);
  expect(axes.indexOf('workload')).toBeLessThan(axes.indexOf('cpus'));
  expect(new Set(axes)).toEqual(new Set(['UV_X', 'workers', 'cpus', 'workload', 'NODE_Y']));
});

test("listBudgetAxes: recommend's `per`, else the default budget axes (those the cells have, when given)", () => {
  expect(listBudgetAxes(undefined)).toEqual(BUDGET_AXES);
  expect(listBudgetAxes({ per: ['workers'] }, ['cpus'])).toEqual(['workers']);
  expect(listBudgetAxes({ per: null }, ['workload', 'cpus', 'node'])).toEqual(['cpus', 'node']);
});

test('pairClaimCells: A and B differ only in the compared axis, among the cells `where` selects', () => {
  const cells = [
    { cell: 'c1w0', values: { cpus: 1, workers: 0 } },
    { cell: 'c1w2', values: { cpus: 1, workers: 2 } },
    { cell: 'c2w0', values: { cpus: 2, workers: 0 } },
    { cell: 'c2w2', values: { cpus: '2', workers: 2 } },
    { cell: 'c4w0', values: { cpus: 4, workers: 0 } },
  ];
  const pairs = (claim) => pairClaimCells(cells, ['cpus', 'workers'], claim).map(({ a, b }) => `${a.cell}-${b.cell}`);
  expect(pairs({ compare: { workers: [0, 2] } })).toEqual(['c1w0-c1w2', 'c2w0-c2w2']);
  expect(pairs({ compare: { workers: [0, 2] }, where: { cpus: 2 } })).toEqual(['c2w0-c2w2']);
  expect(pairs({ compare: { cpus: [1, 4] } })).toEqual(['c1w0-c4w0']);
});
