// Writes docs/columns.md from runner/collect/column-docs.js and the column lists the CSV writers use.
// test/unit/column-docs.test.js fails while the file and the code disagree.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderColumnDocs } from '../runner/collect/column-docs.js';
import { runColumns, TASK_COLUMNS } from '../runner/collect/to-rows.js';
import { WORKLOAD_COLUMNS } from '../runner/collect/workload-columns.js';

export const COLUMNS_FILE = fileURLToPath(new URL('../docs/columns.md', import.meta.url));

export function buildColumnDocs() {
  return renderColumnDocs({ runColumns: runColumns([], Object.keys(WORKLOAD_COLUMNS)), taskColumns: TASK_COLUMNS });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(COLUMNS_FILE, buildColumnDocs());
  console.log(`wrote ${COLUMNS_FILE}`);
}
