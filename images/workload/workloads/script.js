// script: the user's own function. Every thread that runs tasks imports the module once, before
// the start barrier (prepare), so loading stays out of task times; one call is one task, dealt
// like every workload's. A thrown error or a rejected promise fails the run with the user's stack;
// a returned object of numbers becomes user_<key> metrics (the mean over the run's calls).

import { WorkloadError } from '../errors.js';
import { createSpecError, describe, isPlainObject } from '../spec-errors.js';
import { loadUserExport } from '../user/load-export.js';
import { formatUserError } from '../user/user-error.js';

export const defaults = { file: '', export: 'default', tasks: 1, args: {} };

let userFunction;

export function parseParams(given) {
  const params = { ...defaults, ...given };
  for (const key of Object.keys(given)) {
    if (!Object.hasOwn(defaults, key)) throw createSpecError(`LAB_SPEC.params.${key}: not a parameter of script; expected one of ${Object.keys(defaults).join(', ')}`);
  }
  if (typeof params.file !== 'string' || !params.file.startsWith('/')) throw createSpecError(`LAB_SPEC.params.file: expected an absolute path inside the container, got ${describe(params.file)}`);
  if (typeof params.export !== 'string' || params.export === '') throw createSpecError(`LAB_SPEC.params.export: expected an export name, got ${describe(params.export)}`);
  if (!Number.isSafeInteger(params.tasks) || params.tasks < 1) throw createSpecError(`LAB_SPEC.params.tasks: expected a positive integer, got ${describe(params.tasks)}`);
  if (!isPlainObject(params.args)) throw createSpecError(`LAB_SPEC.params.args: expected an object, got ${describe(params.args)}`);
  return params;
}

export async function prepare(params) {
  userFunction = await loadUserExport(params);
}

export function runTask({ args }, task) {
  let returned;
  try {
    returned = userFunction(args, { task });
  } catch (error) {
    throw toTaskError(error);
  }
  return typeof returned?.then === 'function' ? returned.then((value) => value, (error) => { throw toTaskError(error); }) : returned;
}

/** The numbers a call returned, or undefined: only a plain object's finite numbers count. */
export function readTaskValues(returned) {
  // A plain object only: a Buffer or an array would turn its indexes into columns.
  const prototype = returned !== null && typeof returned === 'object' ? Object.getPrototypeOf(returned) : undefined;
  if (prototype !== Object.prototype && prototype !== null) return undefined;
  const numbers = Object.entries(returned).filter(([, value]) => typeof value === 'number' && Number.isFinite(value));
  return numbers.length > 0 ? Object.fromEntries(numbers) : undefined;
}

/** Mean of each returned key over the calls that returned it: one number per run for runs.csv. */
export function measure({ records = [] }) {
  const sums = new Map();
  for (const { values } of records) {
    for (const [key, value] of Object.entries(values ?? {})) {
      const entry = sums.get(key) ?? { total: 0, count: 0 };
      sums.set(key, { total: entry.total + value, count: entry.count + 1 });
    }
  }
  return Object.fromEntries([...sums].map(([key, { total, count }]) => [`user_${key}`, Math.round((total / count) * 1000) / 1000]));
}

function toTaskError(error) {
  return new WorkloadError('ERR_TASK_FAILED', formatUserError(error), { cause: error });
}
