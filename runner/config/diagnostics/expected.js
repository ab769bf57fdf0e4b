// "expected ..." phrases, read off the schema so a new axis or parameter is described without new code.

import { findAxis } from '../../domain/axes.js';
import { formatChoices } from '../values.js';

const CONTAINER_PHRASES = {
  root: 'a mapping with an `experiments:` key',
  experiments: 'a mapping of experiment names to experiments',
  experiment: 'a mapping with at least a `matrix:`',
  matrix: 'a mapping of axes to lists of values',
  env: 'a mapping of variable names to values',
  entries: 'a list of mappings of axes to single values',
  entry: 'a mapping of axes to single values',
  params: 'a mapping of workload names to parameters',
  'workload-params': 'a mapping of parameter names to values',
};

const TYPE_WORDS = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  object: 'a mapping',
  array: 'a list',
};

/** "an integer from 1 to 1024", "one of `pbkdf2` or `argon2`", plus what an axis means when that helps. */
export function describeExpected(schema, location) {
  const phrase = CONTAINER_PHRASES[location.kind] ?? describeScalar(schema);
  const meaning = location.axis && findAxis(location.axis)?.meaning;
  return meaning ? `${phrase} (${meaning})` : phrase;
}

function describeScalar(schema) {
  const types = [schema.type].flat().filter(Boolean);
  if (schema.enum) return `one of ${formatChoices(schema.enum)}`;
  if (schema.const !== undefined) return `${formatChoices([schema.const])} or a mapping`;
  if (schema.pattern && schema.examples) {
    return `${schema.title ? `a ${lowercaseFirst(schema.title)}` : 'a value'} like ${formatChoices(schema.examples)}`;
  }
  if (types.length === 1 && (types[0] === 'integer' || types[0] === 'number')) {
    return describeRange(TYPE_WORDS[types[0]], schema);
  }
  if (types.length > 1) return `a ${joinWords(types)}`;
  if (types[0] === 'string' && schema.minLength >= 1) return 'a non-empty string';
  return TYPE_WORDS[types[0]] ?? 'a value';
}

function describeRange(noun, { minimum, maximum, exclusiveMinimum, exclusiveMaximum }) {
  if (minimum !== undefined && maximum !== undefined) return `${noun} from ${minimum} to ${maximum}`;
  if (exclusiveMinimum !== undefined && exclusiveMaximum !== undefined)
    return `${noun} between ${exclusiveMinimum} and ${exclusiveMaximum}`;
  if (exclusiveMinimum !== undefined) return `${noun} greater than ${exclusiveMinimum}`;
  if (minimum !== undefined) return `${noun} of ${minimum} or more`;
  return noun;
}

/** "a number with at most 3 decimals" for multipleOf 0.001. */
export function describeStep(step) {
  const decimals = Math.round(-Math.log10(step));
  return Number.isInteger(decimals) && 10 ** -decimals === step
    ? `a number with at most ${decimals} decimals`
    : `a multiple of ${step}`;
}

// "Memory limit" → "memory limit", but "CPU set" keeps its acronym.
function lowercaseFirst(title) {
  return title.replace(/^[A-Z](?![A-Z])/, (letter) => letter.toLowerCase());
}

function joinWords(words) {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}
