// CPU amounts as production writes them: a number, or a Kubernetes CPU quantity; the number everywhere after.
import { CPU_QUANTITY_PATTERN, parseCpuAmount } from '../../../runner/domain/cpu-quantity.js';
import { normalizeAxisValue } from '../../../runner/domain/axes.js';
import { COLUMN_TYPES } from '../../../runner/domain/columns.js';

test.each([
  [1.5, 1.5],
  [2, 2],
  [0.001, 0.001],
  ['1500m', 1.5],
  ['500m', 0.5],
  ['1m', 0.001],
  ['0.5', 0.5],
  ['.25', 0.25],
  ['2', 2],
  ['2.000', 2],
  ['100000m', 100],
])('%j is %d CPUs', (given, cpus) => {
  expect(parseCpuAmount(given)).toBe(cpus);
});

test.each([
  0,
  -1,
  0.0005,
  Infinity,
  NaN,
  '1500x',
  '0m',
  '0',
  '0.0',
  '-1',
  '1.5m',
  '0.0005',
  '1e3',
  '',
  ' 2',
  '2 cpus',
  true,
  null,
])('%j is no CPU amount', (given) => {
  expect(parseCpuAmount(given)).toBeUndefined();
});

test('the schema pattern and the parser agree on every string form', () => {
  const pattern = new RegExp(CPU_QUANTITY_PATTERN);
  for (const text of ['1500m', '0.5', '2', '.5', '0m', '1.5m', '-1', '1500x', '0.0005'])
    expect([text, pattern.test(text)]).toEqual([text, parseCpuAmount(text) !== undefined]);
});

test('the cpus axis normalizes a quantity to its number, leaves what is no amount for the schema to report', () => {
  expect(normalizeAxisValue('cpus', '1500m')).toBe(1.5);
  expect(normalizeAxisValue('cpus', 2)).toBe(2);
  expect(normalizeAxisValue('cpus', '1500x')).toBe('1500x');
});

test('runs.csv reads cpus back as a number, though the schema lets a file write it as text', () => {
  expect(COLUMN_TYPES.text.has('cpus')).toBe(false);
  expect(COLUMN_TYPES.text.has('cpuset')).toBe(true);
});
