import { significanceMark } from '../../../runner/stats/statistics.js';

test("significance marks are Node's benchmark compare marks", () => {
  expect([0.2, 0.05, 0.049, 0.01, 0.0099, 0.001, 0.00099, null].map(significanceMark)).toEqual([
    '',
    '',
    '*',
    '*',
    '**',
    '**',
    '***',
    '',
  ]);
});
