// Writes docs/columns.md from the column lists the CSV writers use and the descriptions' homes
// (runner/collect/column-docs.js, the axis table, the workload modules).
// test/unit/column-docs.test.js fails while the file and the code disagree.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderColumnDocs } from '../runner/collect/column-docs.js';
import { AXIS_COLUMNS, HEAD_COLUMNS, MEASURE_COLUMNS, TASK_COLUMNS } from '../runner/collect/to-rows.js';
import { AXES } from '../runner/domain/axes.js';
import { listWorkloadColumns, WORKLOAD_NAMES } from '../runner/domain/workloads.js';

export const COLUMNS_FILE = fileURLToPath(new URL('../docs/columns.md', import.meta.url));

export function readColumnTables() {
  return {
    head: HEAD_COLUMNS,
    axes: AXIS_COLUMNS.map((name) => ({ name, description: AXES[name].description })),
    measures: MEASURE_COLUMNS,
    workloads: WORKLOAD_NAMES.map((name) => ({ name, columns: listWorkloadColumns(name) })).filter(({ columns }) => columns.length > 0),
    taskColumns: TASK_COLUMNS,
  };
}

export function buildColumnDocs() {
  return renderColumnDocs(readColumnTables());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(COLUMNS_FILE, buildColumnDocs());
  console.log(`wrote ${COLUMNS_FILE}`);
}
