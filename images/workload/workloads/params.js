// A workload's `params` table (JSON Schema properties, see index.js) → its defaults, a filled-in copy of
// given parameters, and the image's own check of LAB_SPEC.params. The runner fills defaults from the same
// table (runner/config/defaults.js) and checks it with ajv; the image checks again so it stays usable on
// its own (docker run -e LAB_SPEC=...) and catches a runner that drifted from this contract.

import { describe, isPlainObject } from '../spec-errors.js';

/** { tasks: 16, ... }: every parameter that has a default (an object parameter: its own `default`). */
export function readDefaults(params) {
  return Object.fromEntries(
    Object.entries(params)
      .filter(([, schema]) => schema.default !== undefined)
      .map(([name, schema]) => [name, schema.default]),
  );
}

/**
 * Defaults under what was given; an object parameter takes its defaults key by key, so naming one key keeps the
 * others.
 */
export function fillParams(params, given = {}) {
  const filled = { ...readDefaults(params), ...given };
  for (const [name, schema] of Object.entries(params)) {
    if (schema.type === 'object' && isPlainObject(given[name])) filled[name] = { ...schema.default, ...given[name] };
  }
  return filled;
}

/**
 * The first way `given` breaks the table, as { path, message } (path relative to params), or undefined.
 * Covers what LAB_SPEC can get wrong: unknown keys, types, enums, bounds, patterns; the rest is ajv's.
 */
export function findParamProblem(params, given, workloadName) {
  return checkObject(params, given, [], `a parameter of ${workloadName}`);
}

function checkObject(properties, given, path, what) {
  if (!isPlainObject(given)) return { path, message: `expected an object, got ${describe(given)}` };
  for (const key of Object.keys(given)) {
    if (!Object.hasOwn(properties, key))
      return { path: [...path, key], message: `not ${what}; expected one of ${Object.keys(properties).join(', ')}` };
  }
  for (const [key, value] of Object.entries(given)) {
    const problem = checkValue(properties[key], value, [...path, key]);
    if (problem) return problem;
  }
  return undefined;
}

// The keywords workload params use: type (one or a list), enum, minimum, exclusiveMinimum, maximum,
// pattern, minLength, items and minItems for arrays, properties for objects. Others are left to ajv.
function checkValue(schema, value, path) {
  const fail = (expected) => ({ path, message: `expected ${expected}, got ${describe(value)}` });
  if (schema.enum && !schema.enum.includes(value)) return fail(`one of ${schema.enum.join(', ')}`);
  const types = [schema.type ?? []].flat();
  if (types.length > 1) {
    // Judged by the type the value has; a value of none of them is told the whole list.
    const own = types.find((type) => hasType(type, value));
    return own ? checkValue({ ...schema, type: own }, value, path) : fail(types.map(article).join(' or '));
  }
  const [type] = types;
  // A free-form object (script's args, an app's headers) is the user's to fill.
  if (type === 'object' && !schema.properties) return isPlainObject(value) ? undefined : fail('an object');
  if (type === 'object') return checkObject(schema.properties, value, path, `a key of ${path.at(-1)}`);
  if (type === 'integer' || type === 'number') return checkNumber(schema, value, fail);
  if (type === 'array') return checkArray(schema, value, path, fail);
  if (type === 'null') return value === null ? undefined : fail('null');
  if (type !== undefined && typeof value !== type) return fail(article(type));
  return checkText(schema, value, fail);
}

function checkArray(schema, value, path, fail) {
  if (!Array.isArray(value)) return fail('a list');
  if (schema.minItems !== undefined && value.length < schema.minItems)
    return fail(`a list of at least ${schema.minItems}`);
  for (const [index, item] of value.entries()) {
    const problem = schema.items && checkValue(schema.items, item, [...path, index]);
    if (problem) return problem;
  }
  return undefined;
}

function checkText(schema, value, fail) {
  if (schema.minLength !== undefined && value.length < schema.minLength)
    return fail(`text of at least ${schema.minLength} characters`);
  if (schema.pattern && !new RegExp(schema.pattern).test(value)) return fail(`text matching ${schema.pattern}`);
  return undefined;
}

function checkNumber(schema, value, fail) {
  const bounds = [
    schema.minimum !== undefined ? `≥ ${schema.minimum}` : null,
    schema.exclusiveMinimum !== undefined ? `> ${schema.exclusiveMinimum}` : null,
    schema.maximum !== undefined ? `≤ ${schema.maximum}` : null,
  ]
    .filter(Boolean)
    .join(' and ');
  const expected = `${schema.type === 'integer' ? 'a whole number' : 'a number'}${bounds ? ` ${bounds}` : ''}`;
  const isNumber =
    schema.type === 'integer' ? Number.isSafeInteger(value) : typeof value === 'number' && Number.isFinite(value);
  if (!isNumber) return fail(expected);
  if (schema.minimum !== undefined && value < schema.minimum) return fail(expected);
  if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) return fail(expected);
  if (schema.maximum !== undefined && value > schema.maximum) return fail(expected);
  return undefined;
}

function hasType(type, value) {
  if (type === 'integer' || type === 'number') return typeof value === 'number';
  if (type === 'array') return Array.isArray(value);
  if (type === 'null') return value === null;
  if (type === 'object') return isPlainObject(value);
  return typeof value === type;
}

function article(type) {
  return { integer: 'a whole number', array: 'a list', object: 'an object', null: 'null' }[type] ?? `a ${type}`;
}
