// The column reference cannot drift: every column the CSV writers produce has its meaning, no meaning
// is left for a column that is gone, and docs/columns.md is what the code generates.
import { readFileSync } from 'node:fs';
import { RUN_COLUMN_DOCS, TASK_COLUMN_DOCS } from '../../runner/collect/column-docs.js';
import { runColumns, TASK_COLUMNS } from '../../runner/collect/to-rows.js';
import { WORKLOAD_COLUMNS } from '../../runner/collect/workload-columns.js';
import { buildColumnDocs, COLUMNS_FILE } from '../../scripts/write-column-docs.js';

test('every runs.csv column of every workload is documented, and nothing else', () => {
  expect(Object.keys(RUN_COLUMN_DOCS).sort()).toEqual([...runColumns([], Object.keys(WORKLOAD_COLUMNS))].sort());
});

test('every tasks.csv column is documented, and nothing else', () => {
  expect(Object.keys(TASK_COLUMN_DOCS).sort()).toEqual([...TASK_COLUMNS].sort());
});

test('docs/columns.md is generated from the code (node scripts/write-column-docs.js)', () => {
  expect(readFileSync(COLUMNS_FILE, 'utf8')).toBe(buildColumnDocs());
});
