// run.json read back: parsed, its shape checked (the keys the readers use, with the types they use them as, by a JSON
// Schema and ajv, the validator the config stage uses), and its format version against the one this version reads. A
// damaged or newer file is a LabError naming the file and what is wrong (exit 2), never a stack trace later on.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { LabError } from '../errors.js';
import { RESULTS_FORMAT_VERSION } from './run-info.js';

const OBJECT_OR_NULL = { type: ['object', 'null'] };

/** The keys of run.json that readers use, and their types. Other keys are free: a newer writer may add some. */
export const RUN_INFO_SCHEMA = {
  type: 'object',
  properties: {
    format_version: { type: 'integer', minimum: 1 },
    tool: { type: 'string' },
    experiment: { type: 'string' },
    keep_disturbed: { type: 'boolean' },
    seed: { type: ['integer', 'string', 'null'] },
    order: { type: 'array', items: { type: 'string' } },
    config: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        matrix: { type: 'object' },
        claims: { type: 'array', items: { type: 'object' } },
        recommend: OBJECT_OR_NULL,
        adaptive: OBJECT_OR_NULL,
        report: OBJECT_OR_NULL,
        search: { type: 'string' },
        disturbed_above: { type: 'number' },
        max_reruns: { type: 'integer' },
      },
    },
    cells: {
      type: 'array',
      items: {
        type: 'object',
        required: ['cell', 'values'],
        properties: {
          cell: { type: 'string' },
          values: { type: 'object' },
          params: OBJECT_OR_NULL,
          env: OBJECT_OR_NULL,
          limits: OBJECT_OR_NULL,
        },
      },
    },
    host: { type: 'object', properties: { cpus: { type: 'integer', minimum: 1 } } },
    started_at: { type: ['string', 'null'] },
    finished_at: { type: ['string', 'null'] },
  },
};

const require = createRequire(import.meta.url);
let validate;

/**
 * @param {string} dir  a results folder
 * @returns {object|null}  run.json's content; null when the folder has none (an older or hand-made folder: runs.csv
 *   alone still reports)
 */
export function readRunInfo(dir) {
  const path = join(dir, 'run.json');
  if (!existsSync(path)) return null;
  const info = readJsonFile(path);
  const Ajv = require('ajv').default;
  validate ??= new Ajv({ allErrors: true, strict: false }).compile(RUN_INFO_SCHEMA);
  if (!validate(info)) {
    const [first] = validate.errors;
    const where = first.instancePath ? first.instancePath.slice(1).replaceAll('/', '.') : 'the top level';
    throw damaged(
      path,
      `${where} ${first.message}${validate.errors.length > 1 ? ` (and ${validate.errors.length - 1} more)` : ''}`,
    );
  }
  if ((info.format_version ?? 1) > RESULTS_FORMAT_VERSION) {
    throw new LabError(
      'ERR_RESULTS_VERSION',
      `written by a newer node-threads-lab (results format ${info.format_version}; this version reads up to ${RESULTS_FORMAT_VERSION})`,
      {
        file: path,
        hint: 'read it with the version that wrote it, or update node-threads-lab (npm install node-threads-lab@latest)',
      },
    );
  }
  return info;
}

/** A results folder's JSON file, parsed; not JSON is a damaged file (exit 2) with the line and column. */
export function readJsonFile(path) {
  const text = readFileSync(path, 'utf8');
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw damaged(path, `not valid JSON${describeJsonPosition(cause, text)}: ${cause.message}`, cause);
  }
}

/** A damaged results file: what is wrong, the file (and line), and what to do. Exit 2. */
export function damaged(path, message, cause, { line } = {}) {
  return new LabError('ERR_RESULTS_DAMAGED', message, {
    file: path,
    line,
    cause,
    hint: 'the file is not as node-threads-lab writes it: restore it from where the folder was copied, or rerun the matrix; a run cut short mid-row is repaired by `node-threads-lab run --resume DIR`',
  });
}

// " at line 3, column 14": where JSON.parse stopped, from the position its message names.
function describeJsonPosition(cause, text) {
  const position = Number(/position (\d+)/.exec(cause.message)?.[1]);
  if (!Number.isFinite(position)) return '';
  const before = text.slice(0, position).split('\n');
  return ` at line ${before.length}, column ${before.at(-1).length + 1}`;
}
