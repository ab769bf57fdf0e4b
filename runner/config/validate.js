// A parsed config → the normalized experiments, or one error listing every problem with its place in the file.

import os from 'node:os';
import path from 'node:path';
import { LabError, LabErrors } from '../errors.js';
import { checkExperiment } from './check-experiment.js';
import { checkSchema } from './check-schema.js';
import { MINIMAL_EXAMPLE } from './diagnostics/hints.js';
import { readHost } from './host.js';
import { normalizeExperiment } from './normalize.js';
import { formatPath } from './diagnostics/paths.js';
import { describeValue, isPlainObject } from './values.js';

/**
 * @param {unknown} raw  the parsed file
 * @param {object} [options]
 * @param {string} [options.file]  for error messages
 * @param {(path: Array<string|number>, options?: {key?: boolean}) => {line: number, column: number}} [options.locate]
 * @param {string} [options.configDir]  where the user's files are (default: the file's folder)
 * @param {{cpus?: number, cpuIds?: number[]}|null} [options.host]  what is left out is read from this machine;
 *   null (or engines named in the file) leaves the CPU checks to the engines' own facts (docker/engine-set.js)
 * @returns {{file, experiments: object[], locate, raw, host: {cpus: number, cpuIds: number[]}|null,
 *   engines?: string[]}}
 */
export function validateConfig(raw, { file, locate = () => ({}), host, configDir = file && path.dirname(file) } = {}) {
  const fullHost =
    host === null || namesEngines(raw)
      ? null
      : host?.cpus !== undefined && host?.cpuIds !== undefined
        ? host
        : { ...readHost(), ...host };
  const issues = checkTopLevel(raw) ?? [
    ...checkSchema(raw),
    ...checkOneBackend(raw),
    ...Object.entries(raw.experiments ?? {}).flatMap(([name, experiment]) =>
      // The user's files are relative to the experiments file's folder.
      checkExperiment(experiment, ['experiments', name], fullHost, { configDir }),
    ),
  ];
  if (issues.length > 0) throw createLabError(issues, { file, locate });
  const experiments = Object.entries(raw.experiments).map(([name, experiment]) =>
    normalizeExperiment(name, experiment),
  );
  // host: the machine the containers run on, when it is this one (null when engines elsewhere decide): plan warnings
  // read it.
  return {
    file,
    experiments,
    locate,
    raw,
    host: fullHost,
    ...(raw.engines ? { engines: raw.engines } : {}),
    ...(raw.kubernetes ? { kubernetes: resolveKubernetes(raw.kubernetes, configDir) } : {}),
  };
}

/** The `kubernetes:` block with its kubeconfig path made absolute (relative to the experiments file; ~ is home). */
function resolveKubernetes(kubernetes, configDir = process.cwd()) {
  const { kubeconfig } = kubernetes;
  if (kubeconfig === undefined) return kubernetes;
  const expanded = kubeconfig.startsWith('~/') ? path.join(os.homedir(), kubeconfig.slice(2)) : kubeconfig;
  return { ...kubernetes, kubeconfig: path.resolve(configDir, expanded) };
}

/** Engines named in the file (top level, or an `engine` axis) are other machines than this one. */
function namesEngines(raw) {
  if (!isPlainObject(raw)) return false;
  return (
    raw.engines !== undefined ||
    raw.kubernetes !== undefined ||
    Object.values(isPlainObject(raw.experiments) ? raw.experiments : {}).some(
      (experiment) =>
        isPlainObject(experiment) && isPlainObject(experiment.matrix) && experiment.matrix.engine !== undefined,
    )
  );
}

// Kubernetes runs every experiment of the file; Docker engines named beside it would be silently ignored.
function checkOneBackend(raw) {
  if (!isPlainObject(raw.kubernetes)) return [];
  const axis = Object.entries(isPlainObject(raw.experiments) ? raw.experiments : {}).find(
    ([, experiment]) => isPlainObject(experiment?.matrix) && experiment.matrix.engine !== undefined,
  );
  if (raw.engines !== undefined)
    return [
      {
        path: ['engines'],
        at: 'key',
        message: '`engines:` (Docker) and `kubernetes:` both say where to run',
        hint: 'keep one: delete `engines:` to run on the cluster, or `kubernetes:` to run on Docker',
      },
    ];
  if (axis)
    return [
      {
        path: ['experiments', axis[0], 'matrix', 'engine'],
        at: 'key',
        message: 'an `engine` axis names Docker engines, and this file runs on Kubernetes (`kubernetes:`)',
        hint: 'compare two node pools as two folders (`compare`), or drop `kubernetes:`',
      },
    ];
  return [];
}

// An empty file or a top-level list would make every schema error a confusing echo of this one.
function checkTopLevel(raw) {
  if (raw === null || raw === undefined) {
    return [{ path: [], message: 'the file is empty; expected an `experiments:` mapping', hint: MINIMAL_EXAMPLE }];
  }
  if (!isPlainObject(raw)) {
    return [
      {
        path: [],
        message: `expected a mapping with an \`experiments:\` key at the top level, found ${describeValue(raw)}`,
        hint: MINIMAL_EXAMPLE,
      },
    ];
  }
  return undefined;
}

function createLabError(issues, { file, locate }) {
  const errors = issues
    .map((issue) => ({ issue, ...locate(issue.anchor ?? issue.path, { key: issue.at === 'key' }) }))
    .sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity) || (a.column ?? 0) - (b.column ?? 0))
    .map(
      ({ issue, line, column }) =>
        new LabError('ERR_CONFIG_INVALID', issue.message, {
          file,
          line,
          column,
          path: formatPath(issue.path) || undefined,
          hint: issue.hint,
        }),
    );
  return errors.length === 1 ? errors[0] : new LabErrors(errors);
}
