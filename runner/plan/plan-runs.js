// Config → the ordered list of runs. A run is one container: one cell of the matrix, one repetition.
import path from 'node:path';
import { AXES, AXIS_NAMES } from '../domain/axes.js';
import { formatPath } from '../config/diagnostics/paths.js';
import { getWorkload } from '../domain/workloads.js';
import { LabError } from '../errors.js';
import { expandMatrix } from './expand.js';
import { computeCellId } from '../cells/cell-id.js';
import { toHostLimits } from './cpu-limits.js';
import { pickImageChoice } from './image-choice.js';
import { listBudgetAxes } from '../cells/axes.js';
import { interleave, mirrorRounds, randomFor } from './run-order.js';

// Past this, a typo in a matrix (an extra zero in a list) would tie the machine up for days.
export const MAX_RUNS_PER_EXPERIMENT = 5000;

/**
 * @typedef {object} RunSpec
 * @property {string} experiment
 * @property {string} cell            stable id of everything that goes into the container
 * @property {Record<string, string|number|boolean>} values  the cell's axis values
 * @property {number} repetition      1-based (within warm-ups for a warm-up run)
 * @property {boolean} warmup         a warm-up run: recorded, left out of the statistics
 * @property {string} runKey          `${cell}.${repetition}` (`${cell}.w${repetition}` for warm-ups): identifies the
 *   run across folders
 * @property {string} workload
 * @property {object} params          this workload's parameters, defaults filled
 * @property {number} nodeMajor
 * @property {Record<string,string>} env
 * @property {{nanoCpus?: number, cpusetCpus?: string, memoryBytes: number}} limits
 * @property {number} timeoutMs
 * @property {number} disturbedAbove  the experiment's `disturbed_above`: a run more disturbed than this is marked
 *   (domain/columns.js)
 * @property {number} [rerunOf]       set on a run made in place of a disturbed one: that run's repetition
 *   (rounds/reruns.js)
 * @property {number} [arrivalRate]   an open-loop http run at a rate of its own (the capacity search's,
 *   rounds/capacity.js): params.http.open.rate in its container; its row's `arrival_rate`
 */

/**
 * @param {{ only?: string[], defaultNodeMajor: number, seed?: number, keepDisturbed?: boolean }} options  keepDisturbed
 *   (--keep-disturbed): disturbed runs count in the statistics, so none is re-run
 * @returns {{ experiment: object, cells: object[], runs: RunSpec[], envAxes: string[], keepDisturbed: boolean }[]}
 */
export function planExperiments(config, { only = [], defaultNodeMajor, seed = 0, keepDisturbed = false }) {
  const selected = selectExperiments(config, only);
  return selected.map((experiment) => ({
    ...planExperiment(experiment, { config, defaultNodeMajor, seed }),
    keepDisturbed,
  }));
}

function selectExperiments(config, only) {
  if (only.length === 0) return config.experiments;
  const names = config.experiments.map((experiment) => experiment.name);
  const unknown = only.filter((name) => !names.includes(name));
  if (unknown.length > 0) {
    throw new LabError('ERR_USAGE', `--only names no experiment of ${config.file}: ${unknown.join(', ')}`, {
      hint: `experiments in that file: ${names.join(', ')}`,
    });
  }
  return config.experiments.filter((experiment) => only.includes(experiment.name));
}

function planExperiment(experiment, { config, defaultNodeMajor, seed }) {
  const where = ['experiments', experiment.name];
  const values = expandMatrix(experiment.matrix, experiment);
  const described = values.map((cellValues) => buildCell(experiment, cellValues, { config, where, defaultNodeMajor }));
  // An include entry can repeat a combination; one cell id must mean one cell, or runs would clash.
  const cells = [...new Map(described.map((cell) => [cell.cell, cell])).values()];
  const warmup = experiment.warmup ?? 0;
  const runCount = cells.length * (experiment.repetitions + warmup);
  if (runCount > MAX_RUNS_PER_EXPERIMENT) {
    throw configError(
      config,
      [...where, 'matrix'],
      `the matrix expands to ${runCount} runs (${cells.length} cells × ${experiment.repetitions + warmup} repetitions and warm-ups), more than ${MAX_RUNS_PER_EXPERIMENT}`,
      'narrow it with fewer values, `exclude`, or split it into several experiments',
    );
  }
  const random = randomFor(seed, experiment.name);
  const order = (rounds, isWarmup) =>
    experiment.round_order === 'abba'
      ? mirrorRounds(cells, rounds, {
          seed,
          experiment: experiment.name,
          budgetAxes: listBudgetAxes(experiment.recommend),
          warmup: isWarmup,
        })
      : interleave(cells, rounds, random);
  const runs = [
    ...order(warmup, true)
      .flat()
      .map(({ cell, round }) => toRunSpec(experiment, cell, round, true)),
    ...order(experiment.repetitions, false)
      .flat()
      .map(({ cell, round }) => toRunSpec(experiment, cell, round, false)),
  ];
  const envAxes = [...new Set(values.flatMap((cellValues) => Object.keys(cellValues)))].filter(
    (axis) => !AXIS_NAMES.includes(axis),
  );
  return { experiment, cells, runs, envAxes, seed, random };
}

function buildCell(experiment, values, { config, where, defaultNodeMajor }) {
  if (values.workload === undefined) {
    throw configError(
      config,
      [...where, 'matrix'],
      `a cell has no workload: ${JSON.stringify(values)}`,
      'add a `workload` axis to the matrix (e.g. `workload: [pbkdf2]`) or a `workload` key to that include entry',
    );
  }
  const params = experiment.params[values.workload] ?? {};
  checkCellAxes(values, params, { config, where });
  const env = { ...stringifyValues(experiment.env ?? {}) };
  for (const [axis, value] of Object.entries(values)) {
    if (!AXIS_NAMES.includes(axis)) env[axis] = String(value);
  }
  for (const [axis, value] of Object.entries(values)) {
    if (AXES[axis]?.env) env[AXES[axis].env] = String(value);
  }
  const limits = toHostLimits(values, experiment.memory_bytes);
  const nodeMajor = values.node ?? defaultNodeMajor;
  // Everything that changes what runs inside the container, and nothing else (not the timeout,
  // not the repetition count), so the id survives edits that do not change the measurement. Batches change what
  // a run's value is (warmed-up passes, their median); the speed probe runs outside every time the run reports.
  const batches = experiment.batches ? { batches: experiment.batches } : {};
  const cell = computeCellId({ values, params, env, memory: limits.memoryBytes, nodeMajor, ...batches });
  // Not in the cell id: the same cell from another image is the comparison `npm run compare` makes.
  const imageChoice = pickImageChoice(experiment.image, nodeMajor);
  const configDir = config.file ? path.dirname(config.file) : process.cwd();
  const container = getWorkload(values.workload)?.toContainer?.(params, { configDir }) ?? { params, mounts: [] };
  return { cell, values, workload: values.workload, params, env, limits, nodeMajor, imageChoice, container };
}

/**
 * A workload may refuse an axis value it cannot honour (command: workers, cluster, uv_threadpool_size; http with
 * `start`: workers, cluster).
 */
function checkCellAxes(values, params, { config, where }) {
  const [issue] = getWorkload(values.workload)?.checkCell?.(values, params) ?? [];
  if (issue) throw configError(config, [...where, 'matrix', issue.axis], issue.message, issue.hint);
}

// A capacity search reads p99 against the SLO: a send lag of up to 5% of it (the margin a bound is given, at least the
// generator's own 2 ms) moves a p99 less than that margin, and the latencies count it (timed from the due time), so
// such a run is counted. A rule on the SLO, fixed before any run, never on what a run measured.
function withSloLag(params, experiment) {
  if (!experiment.slo?.p99_ms || !params.open || params.open.max_lag_ms !== undefined) return params;
  return { ...params, open: { ...params.open, max_lag_ms: Math.max(2, 0.05 * experiment.slo.p99_ms) } };
}

export function toRunSpec(experiment, cell, repetition, warmup = false, { rerunOf, arrivalRate } = {}) {
  const container = cell.container ?? { params: cell.params, mounts: [] };
  // A rate of the run's own (the capacity search's): the cell, its id and its other parameters stay as they are.
  const atRate = (params) =>
    withSloLag(
      arrivalRate === undefined ? params : { ...params, open: { ...params.open, rate: arrivalRate } },
      experiment,
    );
  const spec = {
    workload: cell.workload,
    params: atRate(container.params),
    workers: cell.values.workers ?? 0,
    cluster: cell.values.cluster ?? 0,
    ...(experiment.speed_probe ? { speed_probe: true } : {}),
    ...(experiment.batches ? { batches: experiment.batches } : {}),
  };
  return {
    experiment: experiment.name,
    cell: cell.cell,
    values: cell.values,
    repetition,
    warmup,
    runKey: formatRunKey({ cell: cell.cell, warmup, repetition }),
    workload: cell.workload,
    params: atRate(cell.params),
    nodeMajor: cell.nodeMajor,
    imageChoice: cell.imageChoice,
    env: { ...cell.env, LAB_SPEC: JSON.stringify(spec) },
    limits: cell.limits,
    mounts: container.mounts,
    ...(container.workingDir ? { workingDir: container.workingDir } : {}),
    timeoutMs: experiment.timeout * 1000,
    disturbedAbove: experiment.disturbed_above,
    ...(rerunOf === undefined ? {} : { rerunOf }),
    ...(arrivalRate === undefined ? {} : { arrivalRate }),
  };
}

/**
 * `${cell}.${repetition}`, `${cell}.w${repetition}` for a warm-up: a run's identity across folders (resume, run.json
 * order).
 */
export function formatRunKey({ cell, warmup, repetition }) {
  return `${cell}.${warmup === true ? 'w' : ''}${repetition}`;
}

function stringifyValues(object) {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, String(value)]));
}

export function configError(config, path, message, hint) {
  const { line, column } = config.locate?.(path) ?? {};
  return new LabError('ERR_CONFIG_INVALID', message, { file: config.file, line, column, path: formatPath(path), hint });
}

/** One line per run for `--plan`. */
export function formatRun(run) {
  return `${run.experiment} cell ${run.cell} ${run.warmup ? 'warm-up' : 'rep'} ${run.repetition}: ${formatAssignments(run.values)}`;
}

/** "workload=pbkdf2 cpus=1": a run's axis values as the terminal shows them. */
export function formatAssignments(values) {
  return Object.entries(values)
    .map(([axis, value]) => `${axis}=${value}`)
    .join(' ');
}
