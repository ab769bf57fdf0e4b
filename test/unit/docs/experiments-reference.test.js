// docs/experiments.md is the whole reference of experiments.yml: every key the schema accepts is on that page
// (a workload's parameters on params.md, generated from the modules and linked from it), and the workload lists of
// the README and the reference are the registry's.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildSchema } from '../../../runner/config/schema.js';
import { WORKLOAD_NAMES } from '../../../runner/domain/workloads.js';

const read = (path) => readFileSync(fileURLToPath(new URL(`../../../${path}`, import.meta.url)), 'utf8');
const EXPERIMENTS_MD = read('docs/experiments.md');
const PARAMS_MD = read('docs/params.md');
const README = read('README.md');

/**
 * Every key the schema accepts, with its path ("experiments.*.claims.[].expect.ratio"), following $ref, items,
 * anyOf and map values; and every enum value of a key (search: grid, race). Pattern keys (env names) are not keys.
 */
function listSchemaKeys(schema) {
  const keys = [];
  const resolve = (node) => (node?.$ref ? schema.definitions[node.$ref.replace('#/definitions/', '')] : node);
  const walk = (raw, path, seen) => {
    const node = resolve(raw);
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    const inside = new Set(seen).add(node);
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      const enums = resolve(child)?.enum ?? [];
      keys.push({ key, path: [...path, key].join('.'), enums: enums.filter((value) => typeof value === 'string') });
      walk(child, [...path, key], inside);
    }
    for (const child of Object.values(node.patternProperties ?? {})) walk(child, [...path, '*'], inside);
    if (node.additionalProperties && typeof node.additionalProperties === 'object')
      walk(node.additionalProperties, [...path, '*'], inside);
    if (node.items) walk(node.items, [...path, '[]'], inside);
    for (const branch of [...(node.anyOf ?? []), ...(node.oneOf ?? [])]) walk(branch, path, inside);
  };
  walk(schema, [], new Set());
  return keys;
}

// A key is documented when the page names it as code (`key`) or writes it in a YAML example (`key:`).
const mentions = (text, word) => new RegExp(`\`${word}\`|(^|[\\s{,])${word}:`, 'm').test(text);

const KEYS = listSchemaKeys(buildSchema());
const isParam = ({ path }) => /^experiments\.\*\.params\.[^.]+\./.test(path);

test("the walk finds the schema's keys: the top level, every experiment key, nested ones, the parameters", () => {
  const paths = KEYS.map(({ path }) => path);
  expect(paths).toEqual(
    expect.arrayContaining([
      'engines',
      'experiments',
      'experiments.*.claims.[].expect.model',
      'experiments.*.race.from_round',
      'experiments.*.matrix.engine',
      'experiments.*.report.pivots.[].stat',
      'experiments.*.params.pbkdf2.tasks',
    ]),
  );
  expect(KEYS.filter(isParam).length).toBeGreaterThan(30);
});

test('every key the schema accepts (outside params) is in docs/experiments.md', () => {
  const missing = KEYS.filter((entry) => !isParam(entry) && !mentions(EXPERIMENTS_MD, entry.key)).map(
    ({ path }) => path,
  );
  expect(missing).toEqual([]);
});

test('every value a key takes from a list (search, prefer, stat, a workload) is in docs/experiments.md', () => {
  const missing = KEYS.filter((entry) => !isParam(entry)).flatMap(({ path, enums }) =>
    enums.filter((value) => !EXPERIMENTS_MD.includes(`\`${value}\``)).map((value) => `${path}: ${value}`),
  );
  expect(missing).toEqual([]);
});

test('every workload parameter is in docs/params.md, which docs/experiments.md links', () => {
  expect(EXPERIMENTS_MD).toContain('(params.md)');
  // A nested parameter is written with its parent: `spin.ms`.
  const relative = (path) => path.replace(/^experiments\.\*\.params\.[^.]+\./, '').replaceAll('.[]', '');
  const missing = KEYS.filter(isParam)
    .filter(({ path }) => !PARAMS_MD.includes(`\`${relative(path)}\``))
    .map(({ path }) => path);
  expect(missing).toEqual([]);
});

test("the workload lists of the README and docs/experiments.md are the registry's", () => {
  const listed = (text) => {
    const row = text.split('\n').find((line) => line.startsWith('| `workload` |'));
    return [...row.split('|')[2].matchAll(/`([a-z0-9]+)`/g)].map((match) => match[1]);
  };
  expect(listed(EXPERIMENTS_MD)).toEqual(WORKLOAD_NAMES);
  expect(listed(README)).toEqual(WORKLOAD_NAMES);
});
