// "write e.g. ..." hints: what a person could type at the place an error points to.

import { findAxis } from '../../domain/axes.js';
import { formatFlow } from '../values.js';
import { readParamDefaults, WORKLOADS } from '../../domain/workloads.js';
import { suggestFromSchema } from './schema-at.js';

// LabError.format() indents the first hint line by two; the rest are indented here to line up under it.
export const MINIMAL_EXAMPLE = [
  'a minimal experiments.yml is:',
  '    experiments:',
  '      first:',
  '        matrix:',
  '          workload: pbkdf2',
  '          uv_threadpool_size: [1, 4]',
].join('\n');

/**
 * A hint for a value of the wrong kind at `path`, classified as `location` (see classifyPath): the words for the
 * matrix, env, entries and params, and for every other key the example its schema gives (schema-at.js). Never
 * undefined for a path inside the file, so every config error says what to write.
 */
export function suggestValue(location, path = []) {
  return suggestForKind(location) ?? suggestFromSchema(path) ?? MINIMAL_EXAMPLE;
}

function suggestForKind(location) {
  switch (location.kind) {
    case 'root':
    case 'experiments':
    case 'experiment':
      return MINIMAL_EXAMPLE;
    case 'matrix':
      return 'write e.g. `matrix: {cpus: [1, 2], uv_threadpool_size: [1, 4]}`';
    case 'axis':
      return `write e.g. \`${location.axis}: ${formatFlow(findAxis(location.axis)?.example ?? [1, 2])}\``;
    case 'env':
      return 'write e.g. `env: {NODE_OPTIONS: "--max-old-space-size=512"}`';
    case 'env-value':
      return `write e.g. \`${location.variable}: "1"\`; the process sees every value as a string`;
    case 'entries':
    case 'entry':
      return `write e.g. \`${location.list}: [{cpus: 1, uv_threadpool_size: 8}]\``;
    case 'entry-value': {
      const example = findAxis(location.axis)?.example ?? [1];
      return `one value per axis in an ${location.list} entry, e.g. \`- {${location.axis}: ${formatFlow(example[0])}}\``;
    }
    case 'params':
      return 'write e.g. `params: {pbkdf2: {iterations: 50000}}`';
    case 'workload-params':
      return suggestParams(location.workload);
    case 'param':
      return suggestParam(location.workload, location.param);
    default:
      return undefined;
  }
}

function suggestParams(workload) {
  if (!Object.hasOwn(WORKLOADS, workload)) return undefined;
  const [first] = Object.entries(readParamDefaults(workload));
  if (!first) return undefined;
  const [name, value] = first;
  return `write e.g. \`${workload}: {${name}: ${formatFlow(value)}}\``;
}

function suggestParam(workload, param) {
  const defaults = Object.hasOwn(WORKLOADS, workload) ? readParamDefaults(workload) : {};
  if (!Object.hasOwn(defaults, param)) return undefined;
  return `write e.g. \`${param}: ${formatFlow(defaults[param])}\` (the default)`;
}
