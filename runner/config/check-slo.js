// `slo:` of an experiment: the capacity search (runner/verdicts/capacity.js, rounds/capacity.js) — per CPU budget and
// setting, the highest arrival rate whose p99 stays within the SLO. Its schema fragment, the checks JSON Schema cannot
// express (an open-loop http matrix with a rate to start from, no race or advice beside it), and the normalized shape.
import { CAPACITY_DEFAULTS } from '../verdicts/capacity.js';
import { fillAllParams } from '../domain/workloads.js';
import { ensureList, formatFlow, isPlainObject } from './values.js';
import { parseFraction } from './check-recommend.js';

export const SLO_PROPERTY = {
  title: 'SLO (capacity search)',
  description:
    'Find, per CPU budget and setting, the most requests per second served within the SLO: open-loop runs at ' +
    'rates bracketing the one whose p99 is `p99_ms`, each rate a run, starting at `params.http.open.rate` (doubling or ' +
    'halving until the SLO is crossed, then bisecting), until the highest rate shown within and the lowest shown over ' +
    `are within \`resolution\` (95% for both ends), up to \`adaptive.max_repetitions\` runs a cell (default ${CAPACITY_DEFAULTS.cap}). ` +
    'Needs `workload: http` with `load: open`. Answers "1 CPU serves at most N req/s within p99 ≤ 50 ms with X" (docs/http.md).',
  type: 'object',
  additionalProperties: false,
  required: ['p99_ms'],
  properties: {
    p99_ms: {
      type: 'number',
      exclusiveMinimum: 0,
      title: 'p99 (ms)',
      description: "The SLO: a run's p99 response time, from each request's due time, at most this many ms.",
      examples: [50],
    },
    resolution: {
      anyOf: [
        { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
        { type: 'string', pattern: '^[0-9]+(\\.[0-9]+)?%$' },
      ],
      title: 'Resolution',
      description: `The widest bracket that answers: the lowest rate shown over the SLO at most this much above the highest shown within (default ${CAPACITY_DEFAULTS.resolution * 100}%).`,
      examples: ['20%'],
    },
  },
  examples: [{ p99_ms: 50 }],
};

/** Issues in `slo` of one (schema-valid so far) experiment at path `at`. */
export function checkSlo(experiment, at) {
  const { slo } = experiment;
  if (!isPlainObject(slo) || !isPlainObject(experiment.matrix)) return [];
  const path = [...at, 'slo'];
  const issues = [];
  const workloads = ensureList(experiment.matrix.workload ?? []);
  const others = workloads.filter((workload) => workload !== 'http');
  if (others.length > 0 || workloads.length === 0) {
    issues.push({
      path: [...at, 'matrix', 'workload'],
      message: `expected only \`http\` beside \`slo:\`, found ${others.length > 0 ? others.map(formatFlow).join(', ') : 'no workload'}`,
      hint: 'the capacity search loads an HTTP server: `workload: [http]`, or move the others to an experiment of their own',
    });
  }
  const http = fillAllParams(isPlainObject(experiment.params) ? experiment.params : {}).http;
  if (http.load !== 'open') {
    issues.push({
      path: [...at, 'params', 'http', 'load'],
      message: `expected \`load: open\` with \`slo:\`, found ${formatFlow(http.load)}`,
      hint: 'write `params: {http: {load: open, open: {rate: 100}}}`: the search sends requests at fixed rates',
    });
  }
  if (slo.resolution !== undefined && parseFraction(slo.resolution) === undefined) {
    issues.push({
      path: [...path, 'resolution'],
      message: `expected a fraction between 0 and 1 or a percentage such as "20%", found ${formatFlow(slo.resolution)}`,
      hint: 'write e.g. `resolution: 20%`',
    });
  }
  for (const [key, words] of [
    ['recommend', 'advice compares settings at one rate; the capacity search compares the rates they serve'],
    ['claims', 'a claim compares two cells at one rate'],
  ]) {
    if (experiment[key] !== undefined)
      issues.push({
        path: [...at, key],
        at: 'key',
        message: `expected no \`${key}:\` beside \`slo:\`: ${words}`,
        hint: `move \`${key}:\` to an experiment of its own, at a fixed \`open.rate\``,
      });
  }
  if (experiment.search === 'race')
    issues.push({
      path: [...at, 'search'],
      message: 'expected no `search: race` beside `slo:`: the capacity search decides what runs next',
      hint: 'remove `search:`',
    });
  return issues;
}

/** The slo block as the search reads it: `resolution` a fraction. */
export function normalizeSlo(slo) {
  if (!slo) return undefined;
  return { p99_ms: slo.p99_ms, resolution: parseFraction(slo.resolution ?? '') ?? CAPACITY_DEFAULTS.resolution };
}
