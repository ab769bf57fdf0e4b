// The column reference cannot drift: every column the CSV writers produce has its meaning in one
// home, no meaning is left for a column that is gone, and docs/columns.md is what the code generates.
import { readFileSync } from 'node:fs';
import { RUN_COLUMN_DOCS, TASK_COLUMN_DOCS } from '../../runner/collect/column-docs.js';
import { HEAD_COLUMNS, MEASURE_COLUMNS, runColumns, TASK_COLUMNS } from '../../runner/collect/to-rows.js';
import { WORKLOADS, WORKLOAD_NAMES } from '../../runner/domain/workloads.js';
import { buildColumnDocs, buildParamsDocs, COLUMNS_FILE, PARAMS_FILE, readColumnTables } from '../../scripts/write-docs.js';

test('the columns every runs.csv has are described, and nothing else', () => {
  expect(Object.keys(RUN_COLUMN_DOCS).sort()).toEqual([...HEAD_COLUMNS, ...MEASURE_COLUMNS].sort());
});

test('every tasks.csv column is described, and nothing else', () => {
  expect(Object.keys(TASK_COLUMN_DOCS).sort()).toEqual([...TASK_COLUMNS].sort());
});

test('every runs.csv column of every workload appears in the reference, with a description', () => {
  const tables = readColumnTables();
  const documented = [...tables.head, ...tables.axes.map(({ name }) => name), ...tables.measures, ...tables.workloads.flatMap(({ columns }) => columns.map(({ name }) => name))];
  expect(documented.sort()).toEqual([...runColumns([], WORKLOAD_NAMES)].sort());
  for (const { columns } of tables.workloads) for (const column of columns) expect(column.description).toMatch(/\w/);
});

test('docs/columns.md and docs/params.md are generated from the code (node scripts/write-docs.js)', () => {
  expect(readFileSync(COLUMNS_FILE, 'utf8')).toBe(buildColumnDocs());
  expect(readFileSync(PARAMS_FILE, 'utf8')).toBe(buildParamsDocs());
});

test('every workload parameter has a meaning in its module', () => {
  const missing = [];
  const visit = (params, where) => Object.entries(params).forEach(([name, schema]) => {
    if (!schema.description) missing.push(`${where}.${name}`);
    if (schema.properties) visit(schema.properties, `${where}.${name}`);
  });
  for (const name of WORKLOAD_NAMES) visit(WORKLOADS[name].params, name);
  expect(missing).toEqual([]);
});
