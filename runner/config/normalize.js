// A valid raw experiment → the shape every later stage reads: defaults filled, lists everywhere, strings where
// Docker and the CSV want strings.

import { normalizeAxisValue } from '../domain/axes.js';
import { fillAllParams } from '../domain/workloads.js';
import { normalizeClaim } from './check-claims.js';
import { listBudgetAxes } from '../cells/axes.js';
import { normalizeRecommend, RACE_DEFAULTS } from './check-recommend.js';
import { normalizeSlo } from './check-slo.js';
import { CAPACITY_DEFAULTS } from '../verdicts/capacity.js';
import { BATCH_DEFAULTS, EXPERIMENT_DEFAULTS } from './defaults.js';
import { parseMemoryBytes } from '../domain/memory.js';
import { ensureList } from './values.js';

export function normalizeExperiment(name, experiment) {
  const {
    description,
    search,
    repetitions,
    warmup,
    adaptive,
    timeout,
    memory,
    disturbed_above,
    max_reruns,
    busy_wait,
  } = {
    ...EXPERIMENT_DEFAULTS,
    repetitions: defaultRepetitions(experiment),
    // The capacity search decides every round after its first (rounds/capacity.js): no race.
    ...(experiment.slo ? { search: 'grid' } : {}),
    ...experiment,
  };
  // A race needs a cap; one the file does not give is the default's, with rounds for the claims still undecided too.
  // A capacity search's cap is its own: the runs a cell may take to bracket its rate.
  const cap = {
    max_repetitions: experiment.slo ? CAPACITY_DEFAULTS.cap : EXPERIMENT_DEFAULTS.adaptive_max_repetitions,
  };
  const adaptiveOf = () =>
    adaptive ? { ...cap, ...adaptive } : search === 'race' ? { ...cap, claims: true } : experiment.slo ? cap : adaptive;
  return {
    name,
    description,
    repetitions,
    warmup,
    adaptive: adaptiveOf(),
    timeout,
    memory,
    memory_bytes: parseMemoryBytes(memory),
    disturbed_above,
    max_reruns,
    busy_wait,
    env: mapValues(experiment.env ?? {}, String),
    matrix: mapValues(experiment.matrix, (values, axis) =>
      ensureList(values).map((value) => normalizeAxisValue(axis, value)),
    ),
    include: (experiment.include ?? []).map(normalizeEntry),
    exclude: (experiment.exclude ?? []).map(normalizeEntry),
    params: fillAllParams(experiment.params),
    ...(experiment.claims ? { claims: experiment.claims.map(normalizeClaim) } : {}),
    ...(experiment.recommend ? { recommend: normalizeRecommend(experiment.recommend) } : {}),
    ...(experiment.slo ? { slo: normalizeSlo(experiment.slo) } : {}),
    search,
    // Written only when set, so run.json of a folder made before these keys reads the same (resume takes them at
    // their defaults).
    ...(experiment.round_order ? { round_order: experiment.round_order } : {}),
    ...(experiment.speed_probe ? { speed_probe: true } : {}),
    ...(experiment.batches ? { batches: { ...BATCH_DEFAULTS, ...experiment.batches } } : {}),
    ...(search === 'race' ? { race: { ...RACE_DEFAULTS, ...experiment.race } } : {}),
    ...(experiment.image === undefined ? {} : { image: experiment.image }),
    ...(experiment.report ? { report: normalizeReport(experiment.report) } : {}),
    ...(experiment.production ? { production: { ...experiment.production } } : {}),
  };
}

function normalizeReport({ baseline, pivots }) {
  return { ...(baseline ? { baseline: normalizeEntry(baseline) } : {}), ...(pivots ? { pivots } : {}) };
}

function normalizeEntry(entry) {
  return mapValues(entry, (value, axis) => normalizeAxisValue(axis, value));
}

function mapValues(object, map) {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, map(value, key)]));
}

// `repetitions` left out: a race's start rounds, after which only what is still open runs; a grid's runs — and a race
// with no knob to set (no axis with two values besides the workload and the budgets), which has nothing to race and
// runs its start rounds only, so gets a grid's.
export function defaultRepetitions(experiment) {
  // A capacity search's first round is one run a cell at the rate it starts from.
  if (experiment.slo) return 1;
  const budgets = listBudgetAxes(experiment.recommend);
  const valuesOf = (axis) =>
    new Set([
      ...ensureList(experiment.matrix?.[axis] ?? []),
      ...(experiment.include ?? []).flatMap((entry) => (entry[axis] === undefined ? [] : [entry[axis]])),
    ]);
  const axes = new Set([...Object.keys(experiment.matrix ?? {}), ...(experiment.include ?? []).flatMap(Object.keys)]);
  const knob = [...axes].some((axis) => axis !== 'workload' && !budgets.includes(axis) && valuesOf(axis).size > 1);
  return (experiment.search ?? EXPERIMENT_DEFAULTS.search) === 'race' && knob
    ? EXPERIMENT_DEFAULTS.repetitions
    : EXPERIMENT_DEFAULTS.grid_repetitions;
}
