// The column reference cannot drift: every column has its name, type and meaning in one table
// (runner/domain/columns.js), the CSV header, the type table and docs/columns.md are made from it, and
// docs/columns.md is what the code generates.
import { readFileSync } from 'node:fs';
import {
  COLUMN_TYPES,
  RUN_DERIVED_COLUMNS,
  RUN_HEAD_COLUMNS,
  RUN_MEASURE_COLUMNS,
  runColumns,
  TASK_COLUMNS,
  TASK_TABLE_COLUMNS,
} from '../../../runner/domain/columns.js';
import { WORKLOADS, WORKLOAD_NAMES } from '../../../runner/domain/workloads.js';
import {
  buildColumnDocs,
  buildParamsDocs,
  COLUMNS_FILE,
  PARAMS_FILE,
  readColumnTables,
} from '../../../scripts/write-docs.js';

test('one entry of the column table is the header, the type and the documentation of its column', () => {
  const docs = buildColumnDocs();
  const header = runColumns([], []);
  for (const column of [...RUN_HEAD_COLUMNS, ...RUN_MEASURE_COLUMNS]) {
    expect(header).toContain(column.name);
    expect(docs).toContain(`| \`${column.name}\` | ${column.doc} |`);
    if (column.type !== 'number') expect(COLUMN_TYPES[column.type].has(column.name)).toBe(true);
    else expect(COLUMN_TYPES.text.has(column.name) || COLUMN_TYPES.boolean.has(column.name)).toBe(false);
  }
  expect(TASK_COLUMNS).toEqual(TASK_TABLE_COLUMNS.map((column) => column.name));
  for (const column of TASK_TABLE_COLUMNS) expect(docs).toContain(`| \`${column.name}\` | ${column.doc} |`);
  // Columns computed when a folder is read are documented, and never in the header.
  for (const column of RUN_DERIVED_COLUMNS) {
    expect(docs).toContain(`| \`${column.name}\` | ${column.doc} |`);
    expect(header).not.toContain(column.name);
  }
});

test('every runs.csv column of every workload appears in the reference, with a description', () => {
  const tables = readColumnTables();
  const documented = [
    ...tables.head.map(({ name }) => name),
    ...tables.axes.map(({ name }) => name),
    ...tables.measures.map(({ name }) => name),
    ...tables.workloads.flatMap(({ columns }) => columns.map(({ name }) => name)),
  ];
  expect(documented.sort()).toEqual([...runColumns([], WORKLOAD_NAMES)].sort());
  for (const { columns } of tables.workloads) for (const column of columns) expect(column.description).toMatch(/\w/);
});

test('docs/columns.md and docs/params.md are generated from the code (node scripts/write-docs.js)', () => {
  expect(readFileSync(COLUMNS_FILE, 'utf8')).toBe(buildColumnDocs());
  expect(readFileSync(PARAMS_FILE, 'utf8')).toBe(buildParamsDocs());
});

test('every workload parameter has a meaning in its module', () => {
  const missing = [];
  const visit = (params, where) =>
    Object.entries(params).forEach(([name, schema]) => {
      if (!schema.description) missing.push(`${where}.${name}`);
      if (schema.properties) visit(schema.properties, `${where}.${name}`);
    });
  for (const name of WORKLOAD_NAMES) visit(WORKLOADS[name].params, name);
  expect(missing).toEqual([]);
});
