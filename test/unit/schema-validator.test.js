// The validator cached as ajv's standalone code behaves exactly as the one compiled in memory.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import { buildSchema } from '../../runner/config/schema.js';
import { AJV_OPTIONS, loadSchemaValidator } from '../../runner/config/schema-validator.js';

// Inside node_modules, as the real cache: the generated code requires ajv's runtime from there.
const CACHE = fileURLToPath(new URL(`../../node_modules/.cache/node-threads-lab-test-${process.pid}/`, import.meta.url));
afterAll(() => rmSync(CACHE, { recursive: true, force: true }));

const SAMPLES = [
  { experiments: { a: { matrix: { workload: 'pbkdf2', cpus: [1, 2] } } } },
  { experiments: { a: { repetition: 3, matrix: { cpus: ['x'], uv_threadpool_size: [0, 2000] } } } },
  { experiments: { 'bad/name': { matrix: {} }, b: { image: { x: 1 }, matrix: { workload: 'nope' } } } },
  [],
];

test('the first load compiles and writes the cache; the second loads the file; both judge alike', () => {
  const fresh = new Ajv(AJV_OPTIONS).compile(buildSchema());
  const first = loadSchemaValidator({ cacheDir: CACHE });
  expect(readdirSync(CACHE)).toEqual([expect.stringMatching(/^experiments-validator-[0-9a-f]{16}\.cjs$/)]);
  const second = loadSchemaValidator({ cacheDir: CACHE });
  expect(first.schemaEnv).toBeDefined(); // compiled by ajv
  expect(second.schemaEnv).toBeUndefined(); // ajv's standalone code, read from the file
  for (const raw of SAMPLES) {
    const verdicts = [fresh, first, second].map((validate) => [validate(raw), (validate.errors ?? []).map(({ instancePath, keyword, params, data }) => ({ instancePath, keyword, params, data }))]);
    expect(verdicts[1]).toEqual(verdicts[0]);
    expect(verdicts[2]).toEqual(verdicts[0]);
  }
});

test('a cache that cannot be written only means compiling every time', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'lab-cache-')), 'a-file');
  writeFileSync(file, '');
  const validate = loadSchemaValidator({ cacheDir: `${file}/cache/` });
  expect(validate(SAMPLES[0])).toBe(true);
  expect(existsSync(`${file}/cache/`)).toBe(false);
});
