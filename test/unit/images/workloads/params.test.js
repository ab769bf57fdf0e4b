// The image's check of LAB_SPEC.params against a workload's params table (images/workload/workloads/params.js):
// the JSON Schema keywords workload modules use, with the first problem's path and words.
import { fillParams, findParamProblem, readDefaults } from '../../../../images/workload/workloads/params.js';

const PARAMS = {
  n: { type: 'integer', minimum: 1, maximum: 10, default: 2 },
  ratio: { type: 'number', exclusiveMinimum: 0, default: 0.5 },
  mode: { type: 'string', enum: ['a', 'b'], default: 'a' },
  cpus: { type: 'string', pattern: '^[0-9]+$' },
  argv: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 }, default: ['true'] },
  script: { type: ['string', 'null'], default: null },
  group: {
    type: 'object',
    properties: { on: { type: 'boolean', default: false }, k: { type: 'integer', minimum: 0, default: 1 } },
    default: { on: false, k: 1 },
  },
};

test('defaults come from the table; a parameter without one is left out', () => {
  expect(readDefaults(PARAMS)).toEqual({
    n: 2,
    ratio: 0.5,
    mode: 'a',
    argv: ['true'],
    script: null,
    group: { on: false, k: 1 },
  });
});

test('an object parameter takes its defaults key by key', () => {
  expect(fillParams(PARAMS, { group: { k: 5 } }).group).toEqual({ on: false, k: 5 });
});

test.each([
  [{ n: 3, ratio: 1, mode: 'b', cpus: '12', argv: ['ls', '-l'], script: 'echo', group: { on: true } }, undefined],
  [{ script: null }, undefined],
  [
    { x: 1 },
    { path: ['x'], message: 'not a parameter of w; expected one of n, ratio, mode, cpus, argv, script, group' },
  ],
  [{ n: 0 }, { path: ['n'], message: 'expected a whole number ≥ 1 and ≤ 10, got 0' }],
  [{ n: 1.5 }, { path: ['n'], message: 'expected a whole number ≥ 1 and ≤ 10, got 1.5' }],
  [{ ratio: 0 }, { path: ['ratio'], message: 'expected a number > 0, got 0' }],
  [{ mode: 'c' }, { path: ['mode'], message: 'expected one of a, b, got "c"' }],
  [{ cpus: '1-2' }, { path: ['cpus'], message: 'expected text matching ^[0-9]+$, got "1-2"' }],
  [{ argv: 'ls' }, { path: ['argv'], message: 'expected a list, got "ls"' }],
  [{ argv: [] }, { path: ['argv'], message: 'expected a list of at least 1, got []' }],
  [{ argv: ['ls', 2] }, { path: ['argv', 1], message: 'expected a string, got 2' }],
  [{ script: 3 }, { path: ['script'], message: 'expected a string or null, got 3' }],
  [{ group: [] }, { path: ['group'], message: 'expected an object, got []' }],
  [{ group: { off: true } }, { path: ['group', 'off'], message: 'not a key of group; expected one of on, k' }],
  [{ group: { k: -1 } }, { path: ['group', 'k'], message: 'expected a whole number ≥ 0, got -1' }],
])('%j → %j', (given, problem) => {
  expect(findParamProblem(PARAMS, given, 'w')).toEqual(problem);
});
