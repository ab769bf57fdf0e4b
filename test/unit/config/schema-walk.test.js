// Every key the schema has, nested ones too (matrix axes, include/exclude entries, claims' keys, recommend,
// adaptive, race, report, the params of every workload), given values of the wrong type and values the schema
// rejects: the only outcome is the config error, and each of its messages points into the file (line:column, key
// path) and says what to write (a hint with an example). Keys added later are tried without a new line here.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { LabError } from '../../../runner/errors.js';
import { parseYaml, validateConfig } from '../../../runner/config/load-config.js';
import { buildSchema } from '../../../runner/config/schema.js';
import { findExample, findSchemaChain } from '../../../runner/config/diagnostics/schema-at.js';

const SCHEMA = buildSchema();
const HOST = { cpus: 2, cpuIds: [0, 1] };
const CONFIG_DIR = mkdtempSync(path.join(tmpdir(), 'schema-walk-'));
const FILE = path.join(CONFIG_DIR, 'experiments.yml');

// A name for a key the schema matches by pattern or takes any of (additionalProperties).
const PATTERN_NAMES = ['NODE_OPTIONS', '20'];
const ANY_NAMES = { experiments: 'a', compare: 'uv_threadpool_size', require: 'wall_ms', headers: 'x-test' };

function resolve(node) {
  if (!node?.$ref) return node;
  const { $ref, ...own } = node;
  return { ...resolve(SCHEMA.definitions[$ref.replace('#/definitions/', '')]), ...own };
}

/** [{ path, node, named }] for every key and list item below the root; `named`: reached by a key name. */
function listKeys(node, at = [], seen = new Set()) {
  const schema = resolve(node);
  const keys = [];
  const visit = (child, segment, named) => {
    const childPath = [...at, segment];
    const id = childPath.map((part) => (typeof part === 'number' ? '[]' : part)).join('.');
    if (seen.has(id)) return;
    seen.add(id);
    keys.push({ path: childPath, node: resolve(child), named }, ...listKeys(child, childPath, seen));
  };
  for (const branch of [schema, ...(schema.anyOf ?? []).map(resolve)]) {
    for (const [key, child] of Object.entries(branch.properties ?? {})) visit(child, key, true);
    for (const [pattern, child] of Object.entries(branch.patternProperties ?? {})) {
      const name = PATTERN_NAMES.find((candidate) => new RegExp(pattern).test(candidate));
      visit(child, name, true);
    }
    if (branch.additionalProperties && typeof branch.additionalProperties === 'object')
      visit(branch.additionalProperties, ANY_NAMES[at.at(-1)] ?? 'any_key', false);
    if (branch.items && typeof branch.items === 'object') visit(branch.items, 0, false);
  }
  return keys;
}

const KEYS = listKeys(SCHEMA);
const showPath = (keyPath) => keyPath.map((part) => (typeof part === 'number' ? `[${part}]` : `.${part}`)).join('');

const WRONG_TYPES = ['text', 7, 2.5, true, [1], { not_a_key: 1 }, null];

/** Values the schema's own keywords at `node` reject, whatever its type. */
function listWrongValues(node) {
  const values = [];
  const schema = resolve(node);
  for (const branch of [schema, ...(schema.anyOf ?? []).map(resolve)]) {
    if (branch.enum || branch.const !== undefined) values.push('not-a-choice');
    if (branch.minimum !== undefined) values.push(branch.minimum - 1);
    if (branch.exclusiveMinimum !== undefined) values.push(branch.exclusiveMinimum);
    if (branch.maximum !== undefined) values.push(branch.maximum + 1);
    if (branch.exclusiveMaximum !== undefined) values.push(branch.exclusiveMaximum);
    if (branch.multipleOf !== undefined) values.push(branch.multipleOf / 10 + 1);
    if (branch.pattern !== undefined) values.push('?? not this');
    if (branch.minLength !== undefined) values.push('');
    if (branch.minItems !== undefined) values.push([]);
    if (branch.minProperties !== undefined || branch.required) values.push({});
    if (branch.additionalProperties === false) values.push({ 'not a key': 1 });
    const item = branch.items && findExample(branch.items);
    if (branch.uniqueItems && item !== undefined) values.push([item, item]);
    if (branch.maxItems !== undefined && item !== undefined) values.push(Array(branch.maxItems + 1).fill(item));
  }
  return values;
}

// The file around the wrong value: the least that is valid, and each container on the way as its schema's example.
function buildConfig(keyPath, value) {
  const config = { experiments: { a: { matrix: { workload: 'pbkdf2' } } } };
  const chain = findSchemaChain(keyPath);
  let parent = config;
  keyPath.forEach((segment, index) => {
    if (index === keyPath.length - 1) {
      parent[segment] = value;
      return;
    }
    if (parent[segment] === undefined || typeof parent[segment] !== 'object') {
      const nextIsIndex = typeof keyPath[index + 1] === 'number';
      const example = structuredClone(findExample(chain[index + 1]?.node ?? {}));
      parent[segment] = nextIsIndex
        ? Array.isArray(example)
          ? example.slice(0, 1)
          : []
        : example && typeof example === 'object' && !Array.isArray(example)
          ? example
          : {};
    }
    parent = parent[segment];
  });
  return config;
}

function validate(config) {
  const { raw, locate } = parseYaml(stringify(config), FILE);
  return validateConfig(raw, { file: FILE, locate, host: HOST, configDir: CONFIG_DIR });
}

/** undefined when the file is valid after all, else the errors; anything but the config error fails the test. */
function tryValue(keyPath, value) {
  try {
    validate(buildConfig(keyPath, value));
    return undefined;
  } catch (error) {
    if (!(error instanceof LabError) || error.code !== 'ERR_CONFIG_INVALID') {
      throw new Error(`${showPath(keyPath)} = ${JSON.stringify(value)} threw ${error.stack}`, { cause: error });
    }
    return error.errors ?? [error];
  }
}

function expectReadable(errors, keyPath, value) {
  const what = `${showPath(keyPath)} = ${JSON.stringify(value)}`;
  for (const error of errors) {
    expect({ what, line: error.line, column: error.column }).toEqual({
      what,
      line: expect.any(Number),
      column: expect.any(Number),
    });
    expect({ what, path: error.path }).toEqual({
      what,
      path: expect.stringMatching(/^experiments|^engines|^kubernetes/),
    });
    // An example is something to write between backticks (`key: value`), or a whole minimal file.
    expect({ what, hint: error.hint }).toEqual({ what, hint: expect.stringMatching(/`[^`]+`|experiments:\n/) });
    expect(error.format()).toContain(`${FILE}:${error.line}:${error.column}: `);
  }
}

test('the walk reaches every kind of key', () => {
  const shown = KEYS.map(({ path: keyPath }) => showPath(keyPath));
  expect(shown).toEqual(
    expect.arrayContaining([
      '.engines[0]',
      '.experiments.a.matrix.cpus',
      '.experiments.a.matrix.NODE_OPTIONS',
      '.experiments.a.include[0].uv_threadpool_size',
      '.experiments.a.exclude[0].cpus',
      '.experiments.a.env.NODE_OPTIONS',
      '.experiments.a.claims[0].expect.within',
      '.experiments.a.claims[0].compare.uv_threadpool_size',
      '.experiments.a.recommend.require.wall_ms.below',
      '.experiments.a.adaptive.max_repetitions',
      '.experiments.a.race.from_round',
      '.experiments.a.search',
      '.experiments.a.report.pivots[0].stat',
      '.experiments.a.image.20',
      '.experiments.a.params.pbkdf2.iterations',
      '.experiments.a.params.http.app.status',
    ]),
  );
  expect(KEYS.length).toBeGreaterThan(150);
});

test('every key reached by name has an example for a hint to draw from', () => {
  const missing = KEYS.filter(({ named, node }) => named && findExample(node) === undefined).map(({ path: keyPath }) =>
    showPath(keyPath),
  );
  expect(missing).toEqual([]);
});

test.each(KEYS.map(({ path: keyPath, node }) => [showPath(keyPath), keyPath, node]))(
  '%s: a wrong type and a wrong value give the config error with a position and an example',
  (shown, keyPath, node) => {
    let refused = 0;
    for (const value of WRONG_TYPES) {
      const errors = tryValue(keyPath, value);
      if (!errors) continue;
      refused += 1;
      expectReadable(errors, keyPath, value);
    }
    expect({ shown, refused: refused > 0 }).toEqual({ shown, refused: true });
    const wrongValues = listWrongValues(node);
    const refusedValues = wrongValues.filter((value) => {
      const errors = tryValue(keyPath, value);
      if (errors) expectReadable(errors, keyPath, value);
      return errors;
    });
    if (wrongValues.length > 0) expect({ shown, refused: refusedValues.length > 0 }).toEqual({ shown, refused: true });
  },
);

test('a hint is found for a key without an example of its own, and for a path outside the schema', async () => {
  const { suggestValue, MINIMAL_EXAMPLE } = await import('../../../runner/config/diagnostics/hints.js');
  // headers' values have no example: their mapping's is shown.
  expect(suggestValue({ kind: 'param' }, ['experiments', 'a', 'params', 'http', 'app', 'headers', 'x-test'])).toBe(
    'write e.g. `headers: {content-type: "application/json"}`',
  );
  expect(suggestValue({ kind: 'no-such-kind' }, ['nowhere', 3])).toBe(MINIMAL_EXAMPLE);
  expect(suggestValue({ kind: 'workload-params', workload: 'idle' }, ['experiments', 'a', 'params', 'idle'])).toEqual(
    expect.stringContaining('write e.g. `'),
  );
});
