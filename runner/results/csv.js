// CSV for spreadsheets: RFC 4180 quoting (csv-stringify), one header row, plain numbers, empty cell
// for "not set". Text that a spreadsheet would run as a formula is defused; numbers stay numbers.
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';

const FORMULA_START = /^[=+\-@\t\r]/;
const DEFUSED = /^'[=+\-@\t\r]/;

/** Rows (objects) → CSV text for the given columns, with or without the header row. */
export function formatCsv(rows, columns, { header = false } = {}) {
  const records = rows.map((row) => columns.map((column) => toCell(row[column])));
  // RFC 4180 ends records with CRLF; every spreadsheet and CSV library reads it.
  return stringify(records, { header, columns, record_delimiter: 'windows' });
}

export function toCell(value) {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? value : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = String(value);
  // OWASP's advice for CSV injection: a leading apostrophe makes the cell plain text.
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A cell's text as it was before toCell defused it: the reader's half of the spreadsheet guard. */
export function restoreText(text) {
  return DEFUSED.test(text) ? text.slice(1) : text;
}

/** The header row of CSV text, or null for an empty file. */
export function readHeader(text) {
  const [header] = parse(text, { bom: true, to_line: 1 });
  return header ?? null;
}

/** Columns of an existing file's header that `columns` no longer has: appending would lose them. */
export function droppedColumns(header, columns) {
  return (header ?? []).filter((column) => !columns.includes(column));
}

/**
 * CSV text laid out again under `columns`: each cell's text moved as it is (no retyping, no second defusing),
 * a column the text lacks left empty. For a results file written before a column existed.
 */
export function relayCsv(text, columns) {
  const records = parse(text, { bom: true, columns: true, skip_empty_lines: true, relax_column_count: true });
  return stringify(
    records.map((record) => columns.map((column) => record[column] ?? '')),
    { header: true, columns, record_delimiter: 'windows' },
  );
}
