// params.http → checked, defaults filled. Shared by the server (run.js) and the load generator
// (loader.js), which read the same LAB_SPEC. The runner fills defaults too (runner/config/workloads/http.js);
// doing it here keeps the image usable on its own and catches a runner that drifted from this contract.

import { createSpecError, describe, isPlainObject } from '../spec-errors.js';

export const WORK_KINDS = ['none', 'spin', 'pbkdf2', 'argon2', 'template'];
// Test-only: make the server answer wrongly, so the loader's response check can be seen to fail a run.
export const FAULTS = ['none', 'wrong-body', 'wrong-status'];

export const defaults = {
  work: 'pbkdf2',
  spin: { ms: 5 },
  pbkdf2: { iterations: 10000, keylen: 64, digest: 'sha512', sync: false },
  // OWASP's minimum for argon2id (19 MiB, 2 passes, 1 lane): npm argon2's own 64 MiB × connections would
  // spend the memory limit instead of CPU.
  argon2: { memoryCost: 19456, timeCost: 2, parallelism: 1 },
  template: { rows: 100 },
  duration: 10,
  warmup: 3,
  connections: 10,
  pipelining: 1,
  loader: { cpus: 1, cpuset: 'auto' },
  fault: 'none',
};

// `rate` has no default: without it the loader sends as fast as the connections allow. `app`: the
// user's own server instead of ours (its defaults are filled by the runner, checked in user-app.js).
const OPTIONAL = ['rate', 'app'];

const CHECKS = {
  work: (value, key) => checkChoice(value, key, WORK_KINDS),
  fault: (value, key) => checkChoice(value, key, FAULTS),
  duration: (value, key) => checkNumber(value, key, { min: 0.1 }),
  warmup: (value, key) => checkNumber(value, key, { min: 0 }),
  connections: (value, key) => checkInteger(value, key, 1),
  pipelining: (value, key) => checkInteger(value, key, 1),
  rate: (value, key) => checkInteger(value, key, 1),
};

/** @returns {typeof defaults & { rate?: number }} */
export function parseParams(given) {
  const params = {};
  for (const key of Object.keys(given)) {
    if (!Object.hasOwn(defaults, key) && !OPTIONAL.includes(key)) {
      throw createSpecError(`LAB_SPEC.params.${key}: not a parameter of http; expected one of ${[...Object.keys(defaults), ...OPTIONAL].join(', ')}`);
    }
  }
  for (const [key, fallback] of Object.entries(defaults)) {
    const value = given[key];
    if (isPlainObject(fallback)) params[key] = parseGroup(key, value ?? {}, fallback);
    else params[key] = value ?? fallback;
    CHECKS[key]?.(params[key], `LAB_SPEC.params.${key}`);
  }
  if (given.app !== undefined) params.app = parseApp(given.app);
  if (given.rate !== undefined) {
    CHECKS.rate(given.rate, 'LAB_SPEC.params.rate');
    params.rate = given.rate;
  }
  return params;
}

const APP_KEYS = { file: 'string', export: 'string', path: 'string', method: 'string', headers: 'object', body: 'string', status: 'number' };

function parseApp(given) {
  if (!isPlainObject(given)) throw createSpecError(`LAB_SPEC.params.app: expected an object, got ${describe(given)}`);
  for (const [key, type] of Object.entries(APP_KEYS)) {
    if (typeof given[key] !== type) throw createSpecError(`LAB_SPEC.params.app.${key}: expected a ${type}, got ${describe(given[key])}`);
  }
  for (const key of Object.keys(given)) {
    if (!Object.hasOwn(APP_KEYS, key)) throw createSpecError(`LAB_SPEC.params.app.${key}: not a key of app; expected one of ${Object.keys(APP_KEYS).join(', ')}`);
  }
  return given;
}

function parseGroup(name, given, fallback) {
  if (!isPlainObject(given)) throw createSpecError(`LAB_SPEC.params.${name}: expected an object, got ${describe(given)}`);
  for (const [key, value] of Object.entries(given)) {
    const at = `LAB_SPEC.params.${name}.${key}`;
    if (!Object.hasOwn(fallback, key)) throw createSpecError(`${at}: not a key of ${name}; expected one of ${Object.keys(fallback).join(', ')}`);
    if (typeof value !== typeof fallback[key]) throw createSpecError(`${at}: expected a ${typeof fallback[key]}, got ${describe(value)}`);
    if (typeof value === 'number') checkNumber(value, at, { min: name === 'loader' ? 0.001 : 1 });
  }
  return { ...fallback, ...given };
}

function checkChoice(value, key, choices) {
  if (!choices.includes(value)) throw createSpecError(`${key}: expected one of ${choices.join(', ')}, got ${describe(value)}`);
}

function checkNumber(value, key, { min }) {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) throw createSpecError(`${key}: expected a number ≥ ${min}, got ${describe(value)}`);
}

function checkInteger(value, key, min) {
  if (!Number.isSafeInteger(value) || value < min) throw createSpecError(`${key}: expected a whole number ≥ ${min}, got ${describe(value)}`);
}
