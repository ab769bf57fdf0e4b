// Checks JSON Schema cannot express: the host's CPUs, Docker's memory floor, values that collide once normalized,
// keys that must agree across sections. Each runs only on values the schema would accept, so nothing is said twice.

import { findAxis, normalizeAxisValue } from '../domain/axes.js';
import { checkCpus, checkCpuset } from '../../images/workload/lib/check-host.js';
import { checkAdaptive, checkClaims } from './check-claims.js';
import { checkRecommend } from './check-recommend.js';
import { checkSlo } from './check-slo.js';
import { MIN_MEMORY, MIN_MEMORY_BYTES, parseMemoryBytes } from '../domain/memory.js';
import { formatFlow, isPlainObject } from './values.js';
import { fillAllParams, WORKLOADS } from '../domain/workloads.js';

const HOST_CHECKS = { cpus: checkCpus, cpuset: checkCpuset };

/** Issues in one experiment (path prefix `at`), given the host the containers will run on. */
export function checkExperiment(experiment, at, host, { configDir } = {}) {
  if (!isPlainObject(experiment)) return [];
  return [
    ...checkMemory(experiment.memory, [...at, 'memory']),
    ...checkMatrix(experiment.matrix, [...at, 'matrix'], host),
    ...checkEntries(experiment.include, [...at, 'include'], host),
    ...checkEntries(experiment.exclude, [...at, 'exclude'], host),
    ...checkExcludeAxes(experiment, at),
    ...checkEnvClash(experiment, at),
    ...checkParams(experiment.params, [...at, 'params'], host, configDir),
    ...checkRequiredParams(experiment, at),
    ...checkClaims(experiment, at),
    ...checkAdaptive(experiment, at),
    ...checkRecommend(experiment, at),
    ...checkSlo(experiment, at),
    ...checkBatches(experiment, at),
  ];
}

/** Batches repeat the same body of tasks in one container: only a workload whose every task does fixed work has one. */
function checkBatches({ batches, matrix, include }, at) {
  if (!isPlainObject(batches)) return [];
  const named = [
    ...(isPlainObject(matrix) ? [matrix.workload].flat() : []),
    ...(Array.isArray(include) ? include.filter(isPlainObject).map((entry) => entry.workload) : []),
  ];
  const able = Object.keys(WORKLOADS).filter((name) => WORKLOADS[name].fixedWork && !WORKLOADS[name].runPrimary);
  const unable = [...new Set(named)].filter(
    (name) => typeof name === 'string' && name in WORKLOADS && !able.includes(name),
  );
  if (unable.length === 0) return [];
  return [
    {
      path: [...at, 'batches'],
      at: 'key',
      message: `\`batches\` repeats a fixed body of tasks in one container, which ${unable.join(', ')} ${unable.length === 1 ? 'does' : 'do'} not have; expected only ${able.join(', ')} in a matrix with batches`,
      hint: `remove \`batches:\`, or move ${unable.join(', ')} to an experiment of ${unable.length === 1 ? 'its' : 'their'} own`,
    },
  ];
}

function checkMemory(value, path) {
  const bytes = parseMemoryBytes(value);
  if (bytes === undefined || bytes >= MIN_MEMORY_BYTES) return [];
  return [
    {
      path,
      message: `expected at least ${MIN_MEMORY}, found ${JSON.stringify(value)}`,
      hint: 'a Node.js process needs more than that; write e.g. `memory: 512m`',
    },
  ];
}

function checkAxisValue(axis, value, path, host) {
  // host null: the engines are elsewhere; their own CPUs are checked once they are reached.
  if (!host) return [];
  // `cpus: 1500m` is checked as the 1.5 CPUs it is.
  return HOST_CHECKS[axis]?.(normalizeAxisValue(axis, value), path, host) ?? [];
}

function checkMatrix(matrix, path, host) {
  if (!isPlainObject(matrix)) return [];
  return Object.entries(matrix).flatMap(([axis, values]) => {
    if (!Array.isArray(values)) return checkAxisValue(axis, values, [...path, axis], host);
    return [
      ...values.flatMap((value, index) => checkAxisValue(axis, value, [...path, axis, index], host)),
      ...checkNormalizedRepeats(axis, values, [...path, axis]),
    ];
  });
}

// `cpuset: [0, "0"]` or `FOO: [1, "1"]` are one value once normalized; identical values are ajv's to report.
function checkNormalizedRepeats(axis, values, path) {
  if (!findAxis(axis)?.normalize) return [];
  const issues = [];
  values.forEach((value, index) => {
    const first = values.findIndex((other) => normalizeAxisValue(axis, other) === normalizeAxisValue(axis, value));
    if (first < index && values[first] !== value && typeof value !== 'object') {
      issues.push({
        path: [...path, index],
        message: `duplicate value ${formatFlow(value)} (same as [${first}] once ${axis === 'cpus' ? 'read as a number of CPUs' : 'written as text'}); expected each value once`,
        hint: 'remove the repeat: each value is one cell',
      });
    }
  });
  return issues;
}

function checkEntries(entries, path, host) {
  if (!Array.isArray(entries)) return [];
  return entries.flatMap((entry, index) =>
    isPlainObject(entry)
      ? Object.entries(entry).flatMap(([axis, value]) => checkAxisValue(axis, value, [...path, index, axis], host))
      : [],
  );
}

/** An exclude entry naming an axis the matrix does not have can never match a cell. */
function checkExcludeAxes({ matrix, exclude }, at) {
  if (!isPlainObject(matrix) || !Array.isArray(exclude)) return [];
  const axes = Object.keys(matrix);
  return exclude.flatMap((entry, index) =>
    (isPlainObject(entry) ? Object.keys(entry) : [])
      .filter((axis) => findAxis(axis) && !axes.includes(axis))
      .map((axis) => ({
        path: [...at, 'exclude', index, axis],
        at: 'key',
        message:
          `\`${axis}\` is not an axis of this experiment's matrix, so this exclude can never match; ` +
          `expected one of: ${axes.join(', ')}`,
        hint: `remove \`${axis}\` from the entry, or add it to \`matrix:\``,
      })),
  );
}

/** A variable set in `env` and varied by an axis would leave the CSV column and the process disagreeing. */
function checkEnvClash({ env, matrix, include }, at) {
  if (!isPlainObject(env)) return [];
  const axes = new Set([
    ...(isPlainObject(matrix) ? Object.keys(matrix) : []),
    ...(Array.isArray(include) ? include.filter(isPlainObject).flatMap(Object.keys) : []),
  ]);
  return Object.keys(env)
    .filter((name) => axes.has(name))
    .map((name) => ({
      path: [...at, 'env', name],
      at: 'key',
      message: `\`${name}\` is both a fixed \`env\` variable and a matrix axis; expected it in one place`,
      hint: `remove it from \`env:\` to vary it, or from \`matrix:\`/\`include:\` to fix it`,
    }));
}

function checkParams(params, path, host, configDir) {
  if (!isPlainObject(params)) return [];
  const known = Object.keys(params).filter((name) => Object.hasOwn(WORKLOADS, name) && isPlainObject(params[name]));
  const filled = fillAllParams(Object.fromEntries(known.map((name) => [name, params[name]])));
  return known.flatMap((name) =>
    (WORKLOADS[name].checkParams?.(filled[name], host, { configDir }) ?? []).map((issue) => ({
      ...issue,
      path: [...path, name, ...issue.path],
    })),
  );
}

/** A workload with a parameter nothing can default (script's `file`, command's `argv`) needs it written. */
function checkRequiredParams({ matrix, include, params }, at) {
  const named = [
    ...(isPlainObject(matrix) ? [matrix.workload].flat() : []),
    ...(Array.isArray(include) ? include.filter(isPlainObject).map((entry) => entry.workload) : []),
  ];
  return [...new Set(named)]
    .filter((name) => typeof name === 'string' && WORKLOADS[name]?.required)
    .flatMap((name) => {
      const given = isPlainObject(params) && isPlainObject(params[name]) ? params[name] : undefined;
      return WORKLOADS[name].required
        .filter((key) => given?.[key] === undefined)
        .map((key) => ({
          path: given ? [...at, 'params', name] : [...at, 'matrix', 'workload'],
          message: `workload ${name} needs \`params.${name}.${key}\`, found none`,
          hint:
            name === 'script'
              ? 'write e.g. `params: {script: {file: bench/hash.js, export: default, tasks: 8}}`'
              : 'write e.g. `params: {command: {argv: [perl, -e, "print 1"]}}`',
        }));
    });
}
