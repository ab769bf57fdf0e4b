// LAB_SPEC → Spec. The runner fills in defaults already; doing it again here keeps the image usable
// on its own (docker run -e LAB_SPEC=...) and catches a runner that drifted from this contract.

import { createSpecError, describe, isPlainObject } from './spec-errors.js';
import { getWorkload, WORKLOAD_NAMES } from './workloads/index.js';
import { fillParams, findParamProblem } from './workloads/params.js';

const SPEC_KEYS = ['workload', 'params', 'workers', 'cluster'];
const EXAMPLE = '{"workload":"pbkdf2","params":{"tasks":16},"workers":0,"cluster":0}';

/**
 * @typedef {{ workload: string, params: Record<string, unknown>, workers: number, cluster: number }} Spec  params.tasks for CPU workloads
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
  };
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
