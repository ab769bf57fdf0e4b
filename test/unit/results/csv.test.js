import { parse } from 'csv-parse/sync';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatCsv, toCell } from '../../../runner/results/csv.js';
import { CsvAppender } from '../../../runner/results/output-files.js';

describe('CSV', () => {
  test('round-trips through an RFC 4180 parser: quotes, commas, newlines', () => {
    const rows = [{ a: 'plain', b: 'has, comma', c: 'has "quotes"\nand a newline' }];
    const text = formatCsv(rows, ['a', 'b', 'c'], { header: true });
    expect(text.endsWith('\r\n')).toBe(true);
    expect(parse(text, { columns: true })).toEqual(rows);
  });

  test('numbers stay plain numbers; missing values are empty cells', () => {
    const text = formatCsv(
      [{ n: 1.5, neg: -2, none: undefined, nil: null, yes: true }],
      ['n', 'neg', 'none', 'nil', 'yes'],
    );
    expect(text).toBe('1.5,-2,,,true\r\n');
  });

  test('text a spreadsheet would run as a formula is defused', () => {
    expect(toCell('=HYPERLINK("x")')).toBe(`'=HYPERLINK("x")`);
    expect(toCell('+1')).toBe("'+1");
    expect(toCell('-cmd')).toBe("'-cmd");
    expect(toCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(toCell('0-1')).toBe('0-1');
    expect(toCell(-1)).toBe(-1);
  });

  test('the appender writes the header once and whole rows after it', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'csv-')), 'runs.csv');
    const first = new CsvAppender(path, ['x', 'y']);
    first.append([{ x: 1, y: 'a' }]);
    first.close();
    const again = new CsvAppender(path, ['x', 'y']);
    again.append([{ x: 2, y: 'b' }, { x: 3 }]);
    again.close();
    expect(readFileSync(path, 'utf8')).toBe('x,y\r\n1,a\r\n2,b\r\n3,\r\n');
  });
});
