// LAB_SPEC → Spec. The runner fills in defaults already; doing it again here keeps the image usable
// on its own (docker run -e LAB_SPEC=...) and catches a runner that drifted from this contract.

import { BATCH_AGGREGATES } from './lib/batches.js';
import { createSpecError, describe, isPlainObject } from './spec-errors.js';
import { getWorkload, WORKLOAD_NAMES } from './workloads/index.js';
import { fillParams, findParamProblem } from './workloads/params.js';

const SPEC_KEYS = ['workload', 'params', 'workers', 'cluster', 'speed_probe', 'batches'];
const BATCH_KEYS = ['count', 'warmup', 'aggregate'];
const EXAMPLE = '{"workload":"pbkdf2","params":{"tasks":16},"workers":0,"cluster":0}';

/**
 * @typedef {{ workload: string, params: Record<string, unknown>, workers: number, cluster: number, speed_probe?: true,
 *   batches?: { count: number, warmup: number, aggregate: 'median'|'mean' } }} Spec  params.tasks for CPU workloads;
 *   speed_probe and batches only when asked for (probe/speed.js, lib/batches.js)
 * @param {string|undefined} text  the LAB_SPEC environment variable
 * @returns {Spec}
 */
export function parseSpec(text) {
  if (text === undefined || text.trim() === '')
    throw createSpecError(`LAB_SPEC is not set; expected JSON such as ${EXAMPLE}`);
  let raw;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw createSpecError(`LAB_SPEC is not valid JSON (${error.message}); expected JSON such as ${EXAMPLE}`);
  }
  if (!isPlainObject(raw))
    throw createSpecError(`LAB_SPEC: expected a JSON object such as ${EXAMPLE}, got ${describe(raw)}`);
  for (const key of Object.keys(raw)) {
    if (!SPEC_KEYS.includes(key))
      throw createSpecError(`LAB_SPEC.${key}: not a known key; expected only ${SPEC_KEYS.join(', ')}`);
  }
  const workload = getWorkload(raw.workload);
  if (!workload) {
    throw createSpecError(
      `LAB_SPEC.workload: expected one of ${WORKLOAD_NAMES.join(', ')}, got ${describe(raw.workload)}`,
    );
  }
  return {
    workload: raw.workload,
    params: normalizeParams(raw.workload, workload, raw.params ?? {}),
    workers: readCount(raw, 'workers'),
    cluster: readCount(raw, 'cluster'),
    ...readSpeedProbe(raw),
    ...(raw.batches === undefined ? {} : { batches: readBatches(raw.batches, workload) }),
  };
}

function readSpeedProbe(raw) {
  if (raw.speed_probe === undefined || raw.speed_probe === false) return {};
  if (raw.speed_probe !== true)
    throw createSpecError(`LAB_SPEC.speed_probe: expected true or false, got ${describe(raw.speed_probe)}`);
  return { speed_probe: true };
}

// Batches repeat the tasks in one container: only a workload whose every task does the same work has a "same body"
// to repeat (the runner refuses the others before any run; this is the image's own check).
function readBatches(batches, workload) {
  if (!isPlainObject(batches))
    throw createSpecError(
      `LAB_SPEC.batches: expected an object such as {"count":3,"warmup":1}, got ${describe(batches)}`,
    );
  for (const key of Object.keys(batches)) {
    if (!BATCH_KEYS.includes(key))
      throw createSpecError(`LAB_SPEC.batches.${key}: not a known key; expected only ${BATCH_KEYS.join(', ')}`);
  }
  if (!workload.fixedWork || workload.runPrimary)
    throw createSpecError('LAB_SPEC.batches: this workload cannot run in batches (only a fixed-work CPU workload can)');
  const count = batches.count ?? 1;
  const warmup = batches.warmup ?? 1;
  if (!Number.isSafeInteger(count) || count < 1)
    throw createSpecError(`LAB_SPEC.batches.count: expected a whole number ≥ 1, got ${describe(batches.count)}`);
  if (!Number.isSafeInteger(warmup) || warmup < 0)
    throw createSpecError(`LAB_SPEC.batches.warmup: expected a whole number ≥ 0, got ${describe(batches.warmup)}`);
  const aggregate = batches.aggregate ?? 'median';
  if (!BATCH_AGGREGATES.includes(aggregate))
    throw createSpecError(
      `LAB_SPEC.batches.aggregate: expected one of ${BATCH_AGGREGATES.join(', ')}, got ${describe(batches.aggregate)}`,
    );
  return { count, warmup, aggregate };
}

// The workload's params table is the contract (workloads/index.js): the same defaults and bounds the runner used.
function normalizeParams(name, workload, given) {
  if (!isPlainObject(given)) throw createSpecError(`LAB_SPEC.params: expected an object, got ${describe(given)}`);
  const problem =
    findParamProblem(workload.params, given, name) ?? workload.checkParams?.(fillParams(workload.params, given))[0];
  if (problem) throw createSpecError(`LAB_SPEC.params.${problem.path.join('.')}: ${problem.message}`);
  return fillParams(workload.params, given);
}

function readCount(raw, key) {
  const value = raw[key] ?? 0;
  if (!Number.isSafeInteger(value) || value < 0)
    throw createSpecError(`LAB_SPEC.${key}: expected a whole number ≥ 0, got ${describe(value)}`);
  return value;
}
