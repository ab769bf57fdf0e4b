// The compiled JSON Schema validator, kept as code between runs: compiling the schema with ajv costs
// more than a tenth of a second at every start (and importing ajv as much again), loading ajv's own
// standalone output of it a few milliseconds. The file is named by a hash of the schema, ajv's
// version and the options, so a changed axis or workload table compiles afresh; it lives in
// node_modules/.cache, where the generated code finds ajv's runtime. Any trouble with the cache
// falls back to compiling in memory: the cache may only make things faster.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { buildSchema } from './schema.js';

export const AJV_OPTIONS = {
  allErrors: true, // every problem in one run, so a person fixes them in one edit
  verbose: true, // errors carry the data and schema the messages are built from
  allowUnionTypes: true,
  multipleOfPrecision: 9, // 0.3 is a multiple of 0.001 despite floating point
};

const require = createRequire(import.meta.url);
const CACHE_DIR = fileURLToPath(new URL('../../node_modules/.cache/node-threads-lab/', import.meta.url));

/** validate(raw) → boolean, with validate.errors as ajv gives them. */
export function loadSchemaValidator({ cacheDir = CACHE_DIR } = {}) {
  const schema = buildSchema();
  const file = `${cacheDir}experiments-validator-${hashInputs(schema)}.cjs`;
  try {
    return require(file);
  } catch {
    // not cached yet, or unreadable: compile below
  }
  // Required only here (ajv is CommonJS): a cached start never loads it.
  const Ajv = require('ajv').default;
  const standaloneCode = require('ajv/dist/standalone').default;
  const ajv = new Ajv({ ...AJV_OPTIONS, code: { source: true } });
  const validate = ajv.compile(schema);
  try {
    // Two levels by hand, not { recursive: true }: Node 20's recursive mkdir can spin forever on a
    // path it cannot create, and a cache must never hang a start.
    for (const dir of [path.dirname(path.resolve(cacheDir)), cacheDir]) if (!existsSync(dir)) mkdirSync(dir);
    writeFileSync(`${file}.${process.pid}.tmp`, standaloneCode(ajv, validate));
    renameSync(`${file}.${process.pid}.tmp`, file);
  } catch {
    // a read-only install: compile at every start, as without the cache
  }
  return validate;
}

function hashInputs(schema) {
  const { version } = JSON.parse(readFileSync(require.resolve('ajv/package.json'), 'utf8'));
  return createHash('sha256')
    .update(JSON.stringify({ schema, ajv: version, options: AJV_OPTIONS }))
    .digest('hex')
    .slice(0, 16);
}
