// CSV for spreadsheets: RFC 4180 quoting (csv-stringify), one header row, plain numbers, empty cell
// for "not set". Text that a spreadsheet would run as a formula is defused; numbers stay numbers.
import { stringify } from 'csv-stringify/sync';

const FORMULA_START = /^[=+\-@\t\r]/;

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
