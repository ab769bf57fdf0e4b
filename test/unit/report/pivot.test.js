import { buildPivots, defaultSpecs, pivotToRecords } from '../../../runner/report/pivot.js';
import { formatPivotCsv } from '../../../runner/report/write-reports.js';

const AXES = ['workload', 'cpus', 'cpuset', 'uv_threadpool_size', 'workers'];
const rows = [];
for (const workers of [0, 2]) {
  for (const cpus of [2, 1]) {
    for (const pool of [4, 1])
      rows.push({
        cell: `c${cpus}${pool}${workers}`,
        workload: 'pbkdf2',
        cpus,
        uv_threadpool_size: pool,
        workers,
        wall_ms_median: cpus * 1000 + pool * 10 + workers,
        wall_ms_mean: 1,
      });
  }
}

test('default: pool threads down, CPUs across, whatever else varies makes slices', () => {
  expect(defaultSpecs(['cpus', 'uv_threadpool_size'])).toEqual([{ rows: 'uv_threadpool_size', columns: 'cpus' }]);
  expect(defaultSpecs(['cpuset', 'workers'])).toEqual([{ rows: 'workers', columns: 'cpuset' }]);
  expect(defaultSpecs(['uv_threadpool_size'])).toEqual([{ rows: 'uv_threadpool_size', columns: null }]);
  expect(defaultSpecs(['cpus'])).toEqual([{ rows: 'cpus', columns: null }]);
  expect(defaultSpecs([])).toEqual([]);
});

test('values sorted ascending, one table per slice of the other varying axis', () => {
  const { pivots, notes } = buildPivots(
    rows.filter((r) => r.workers === 0).concat(rows.filter((r) => r.workers === 2)),
    AXES,
  );
  expect(notes).toEqual([]);
  expect(pivots.map((p) => p.name)).toEqual([
    'pivot-pbkdf2-wall_ms_median-uv_threadpool_size-by-cpus-workers=0',
    'pivot-pbkdf2-wall_ms_median-uv_threadpool_size-by-cpus-workers=2',
  ]);
  expect(pivots[1]).toMatchObject({
    rowValues: [1, 4],
    columnValues: [1, 2],
    values: [
      [1012, 2012],
      [1042, 2042],
    ],
    slice: { workers: 2 },
  });
});

test('configured pivots: any statistic; a missing combination is an empty cell; an unknown axis is a note', () => {
  const some = rows.filter((r) => r.workers === 0 && !(r.cpus === 2 && r.uv_threadpool_size === 4));
  const { pivots, notes } = buildPivots(some, AXES, [
    { rows: 'cpus', columns: 'uv_threadpool_size', metric: 'wall_ms', stat: 'mean' },
    { rows: 'node', columns: 'cpus' },
  ]);
  expect(pivots).toHaveLength(1);
  expect(pivots[0]).toMatchObject({
    column: 'wall_ms_mean',
    rowValues: [1, 2],
    columnValues: [1, 4],
    values: [
      [1, 1],
      [1, null],
    ],
  });
  expect(notes).toEqual(['pivot node × cpus for pbkdf2: no axis node in these results']);
});

test('as CSV: a corner cell naming both axes, values unrounded, an empty cell where nothing ran', () => {
  const pivot = {
    rows: 'uv_threadpool_size',
    columns: 'cpus',
    rowValues: [1, 8],
    columnValues: [1, 2],
    values: [
      [5724.286, 5857.931],
      [6332.993, null],
    ],
  };
  expect(pivotToRecords(pivot).header).toEqual(['uv_threadpool_size \\ cpus', '1', '2']);
  expect(formatPivotCsv(pivot)).toBe('uv_threadpool_size \\ cpus,1,2\r\n1,5724.286,5857.931\r\n8,6332.993,\r\n');
});

test('axis values a spreadsheet would run as formulas are defused in pivot CSVs too', () => {
  const pivot = {
    rows: 'FLAGS',
    columns: null,
    rowValues: ['=1+1', '-x'],
    columnValues: ['wall_ms_median'],
    values: [[1], [2]],
  };
  expect(formatPivotCsv(pivot)).toBe("FLAGS,wall_ms_median\r\n'=1+1,1\r\n'-x,2\r\n");
});
