// The validator cached as ajv's standalone code behaves exactly as the one compiled in memory.
// Loaded in child processes: jest's own module registry does not see files created after it started.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import Ajv from 'ajv';
import { buildSchema } from '../../../runner/config/schema.js';
import { AJV_OPTIONS, loadSchemaValidator } from '../../../runner/config/schema-validator.js';

const MODULE = fileURLToPath(new URL('../../../runner/config/schema-validator.js', import.meta.url));
// Inside node_modules, as the real cache: the generated code requires ajv's runtime from there.
const CACHE = fileURLToPath(
  new URL(`../../../node_modules/.cache/node-threads-lab-test-${process.pid}/`, import.meta.url),
);
afterAll(() => rmSync(CACHE, { recursive: true, force: true }));

const SAMPLES = [
  { experiments: { a: { matrix: { workload: 'pbkdf2', cpus: [1, 2] } } } },
  { experiments: { a: { repetition: 3, matrix: { cpus: ['x'], uv_threadpool_size: [0, 2000] } } } },
  { experiments: { 'bad/name': { matrix: {} }, b: { image: { x: 1 }, matrix: { workload: 'nope' } } } },
  [],
];

const judge = (validate) =>
  SAMPLES.map((raw) => [
    validate(raw),
    (validate.errors ?? []).map(({ instancePath, keyword, params, data }) => ({ instancePath, keyword, params, data })),
  ]);

function judgeInChild(cacheDir) {
  const script = `import { loadSchemaValidator } from ${JSON.stringify(MODULE)};
const validate = loadSchemaValidator({ cacheDir: ${JSON.stringify(cacheDir)} });
const samples = ${JSON.stringify(SAMPLES)};
console.log(JSON.stringify({ fromFile: validate.schemaEnv === undefined, verdicts: samples.map((raw) => [validate(raw), (validate.errors ?? []).map(({ instancePath, keyword, params, data }) => ({ instancePath, keyword, params, data }))]) }));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

test('the first start compiles and writes the cache; the next loads the file; both judge as ajv does', () => {
  const expected = JSON.parse(JSON.stringify(judge(new Ajv(AJV_OPTIONS).compile(buildSchema()))));
  const first = judgeInChild(CACHE);
  expect(readdirSync(CACHE)).toEqual([expect.stringMatching(/^experiments-validator-[0-9a-f]{16}\.cjs$/)]);
  const second = judgeInChild(CACHE);
  expect(first.fromFile).toBe(false);
  expect(second.fromFile).toBe(true);
  expect(first.verdicts).toEqual(expected);
  expect(second.verdicts).toEqual(expected);
});

test('a cache that cannot be written only means compiling every time', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'lab-cache-')), 'a-file');
  writeFileSync(file, '');
  const validate = loadSchemaValidator({ cacheDir: `${file}/cache/` });
  expect(validate(SAMPLES[0])).toBe(true);
  expect(existsSync(`${file}/cache/`)).toBe(false);
});
