// `recommend:` and `search:` of an experiment: their schema fragments, the checks JSON Schema cannot express (the
// metric must be one the workloads measure, `per` and `default` name axes and values of this experiment, a
// constraint names a numeric column), and the normalized shape advice and racing read.

import { DEFAULT_BOUND_RULE } from '../verdicts/choose-setting.js';
import { findAxis, normalizeAxisValue } from '../domain/axes.js';
import { WORKLOAD_NAMES } from '../domain/workloads.js';
import { suggestName } from '../../images/workload/lib/suggest.js';
import { claimableMetrics } from './check-claims.js';
import { ensureList, formatFlow, isPlainObject } from './values.js';

export const RECOMMEND_DEFAULTS = { within: 0.05, prefer: 'fewest' };
// The race's start rounds: those of the rule docs/statistics.md chose (DEFAULT_BOUND_RULE.n0).
export const RACE_DEFAULTS = { from_round: DEFAULT_BOUND_RULE.n0 };

const PERCENT_PATTERN = '^[0-9]+(\\.[0-9]+)?%$';

export const RECOMMEND_PROPERTY = {
  title: 'Recommend',
  description:
    'Ask for advice: per CPU budget (`per`), "use X: at most U% slower than the best tried (95%)" — the cheapest ' +
    'setting in production whose bound is within `within`, every `require` met, or "keep" the setting the service ' +
    'runs today (`default`) when it is within — each cheaper setting with its bound or why it is out, and the ' +
    'default against it (advice.csv, the top of report.md/report.html, `node-threads-lab advise DIR`). Every axis ' +
    'that is not a budget is a knob.',
  type: 'object',
  additionalProperties: false,
  properties: {
    metric: {
      type: 'string',
      title: 'Metric',
      examples: ['requests_per_sec', 'wall_ms'],
      description:
        "What to optimize: a numeric runs.csv column; default: the workload's primary metric (its direction is known).",
    },
    per: {
      type: 'array',
      uniqueItems: true,
      items: { type: 'string', examples: ['cpus'] },
      title: 'Budget axes',
      examples: [['cpus']],
      description:
        'The axes that are the budget, one answer per combination of their values; default: cpus, cpuset, node and engine where the matrix has them.',
    },
    within: {
      type: ['number', 'string'],
      title: 'Margin',
      examples: ['5%', 0.05],
      description:
        'The margin: a budget is settled when a setting is shown at most this much worse than the best tried (its 95% bound): a fraction or a percentage; default 5%.',
    },
    prefer: {
      type: 'string',
      enum: ['fewest', 'best'],
      default: RECOMMEND_DEFAULTS.prefer,
      title: 'Prefer',
      description:
        'Which setting within the margin to use: `fewest` (default): the cheapest in production — fewest processes, then least measured memory (peak RSS, in steps of `within` of the memory limit), then the setting the service runs today (`default`), which is kept when it is within the margin; idle pool threads cost nothing. `best`: the best estimate.',
    },
    require: {
      type: 'object',
      title: 'Constraints',
      minProperties: 1,
      examples: [{ latency_p99_ms: { below: 50 } }],
      description:
        'Metric → {below: X} or {above: X}: a setting is recommended only when the interval of its median meets every one.',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        maxProperties: 1,
        properties: { below: { type: 'number', examples: [50] }, above: { type: 'number', examples: [1000] } },
        examples: [{ below: 50 }],
      },
    },
    default: {
      $ref: '#/definitions/entry',
      description:
        "The setting the service runs today: the answer keeps it when it is within the margin of the best, and otherwise says why it changes it; default: Node's own (UV_THREADPOOL_SIZE 4, no workers, no cluster).",
      examples: [{ uv_threadpool_size: 4 }],
    },
  },
  examples: [
    {
      metric: 'requests_per_sec',
      per: ['cpus'],
      within: '5%',
      prefer: 'fewest',
      require: { latency_p99_ms: { below: 50 } },
    },
  ],
};

export const SEARCH_PROPERTY = {
  type: 'string',
  enum: ['grid', 'race'],
  default: 'race',
  examples: ['grid'],
  title: 'Search',
  description:
    '`race` (default): after the first rounds (`repetitions`, and at least ' +
    '`race.from_round`), a budget runs on only while its answer is not settled, and each round only the settings ' +
    'that can still change it: the cheaper candidates still in reach of `within` and the setting that binds each ' +
    "one's bound, up to `adaptive.max_repetitions` a cell (default 8; with claims still undecided run too). A matrix " +
    'without a knob to set (no axis besides the budget and the workload) runs its `repetitions` and no more. `grid`: ' +
    'every cell gets its `repetitions` runs, and adaptive rounds only if `adaptive:` asks (docs/experiments.md).',
};

export const RACE_PROPERTY = {
  type: 'object',
  title: 'Race',
  additionalProperties: false,
  description: 'How `search: race` starts.',
  properties: {
    from_round: {
      type: 'integer',
      minimum: 2,
      default: RACE_DEFAULTS.from_round,
      title: 'Rounds every setting runs before any stops',
      description:
        'The start rounds: until then every setting of a budget runs each round, and no setting is eliminated or ' +
        `found futile (default: ${RACE_DEFAULTS.from_round}, the rule docs/statistics.md chose).`,
      examples: [3],
    },
  },
  examples: [{ from_round: 3 }],
};

/** Issues in `recommend`, `search` and `race` of one (schema-valid so far) experiment at path `at`. */
export function checkRecommend(experiment, at) {
  const { recommend } = experiment;
  const issues = [];
  if (!isPlainObject(recommend) || !isPlainObject(experiment.matrix)) return issues;
  const path = [...at, 'recommend'];
  const axes = listAxes(experiment);
  const workloads = ensureList(experiment.matrix.workload ?? []).filter((name) => WORKLOAD_NAMES.includes(name));
  if (typeof recommend.metric === 'string')
    issues.push(...checkMetricName(recommend.metric, workloads, [...path, 'metric']));
  if (recommend.within !== undefined && parseFraction(recommend.within) === undefined) {
    issues.push({
      path: [...path, 'within'],
      message: `expected a fraction between 0 and 1 or a percentage such as "5%", found ${formatFlow(recommend.within)}`,
      hint: 'write e.g. `within: 5%` (settings within 5% of the best are as good)',
    });
  }
  for (const [index, axis] of (Array.isArray(recommend.per) ? recommend.per : []).entries()) {
    if (axes.includes(axis)) continue;
    const suggestion = suggestName(axis, axes);
    issues.push({
      path: [...path, 'per', index],
      message: `\`${axis}\` is not an axis of this experiment; expected one of: ${axes.join(', ')}`,
      hint: suggestion
        ? `did you mean \`${suggestion}\`?`
        : 'the budget is one or more axes of `matrix:`, e.g. `per: [cpus]`',
    });
  }
  if (isPlainObject(recommend.require)) {
    for (const metric of Object.keys(recommend.require))
      issues.push(...checkMetricName(metric, workloads, [...path, 'require', metric], 'key'));
  }
  if (isPlainObject(recommend.default)) {
    for (const [axis, value] of Object.entries(recommend.default)) {
      if (!axes.includes(axis)) {
        // A name that is no axis at all is the schema's to report (with its own did-you-mean).
        if (!findAxis(axis) && !/^[A-Z][A-Z0-9_]*$/.test(axis)) continue;
        const suggestion = suggestName(axis, axes);
        issues.push({
          path: [...path, 'default', axis],
          at: 'key',
          message: `\`${axis}\` is not an axis of this experiment; expected one of: ${axes.join(', ')}`,
          hint: suggestion
            ? `did you mean \`${suggestion}\`?`
            : 'the default names a value of each knob, e.g. `default: {workers: 0}`',
        });
        continue;
      }
      const known = listValues(experiment, axis);
      if (!known.some((candidate) => String(candidate) === String(normalizeAxisValue(axis, value)))) {
        issues.push({
          path: [...path, 'default', axis],
          message: `${formatFlow(value)} is not a value of \`${axis}\` in this experiment; expected one of: ${known.map(formatFlow).join(', ')}`,
          hint: `add it to \`matrix: {${axis}: ...}\`, or name a value the matrix has`,
        });
      }
    }
  }
  return issues;
}

function checkMetricName(metric, workloads, path, at) {
  const lacking = workloads.filter((workload) => !claimableMetrics(workload).includes(metric));
  if (lacking.length === 0) return [];
  const known = [...new Set(workloads.flatMap(claimableMetrics))];
  const suggestion = suggestName(metric, known);
  return [
    {
      path,
      ...(at ? { at } : {}),
      message: `\`${metric}\` is not a numeric column the ${lacking.join(', ')} workload reports; expected e.g. ${claimableMetrics(lacking[0]).slice(0, 5).join(', ')}`,
      hint: suggestion
        ? `did you mean \`${suggestion}\`?`
        : `name any numeric runs.csv column of the workload, e.g. \`${claimableMetrics(lacking[0])[0]}\``,
    },
  ];
}

function listAxes({ matrix, include }) {
  return [
    ...new Set([
      ...Object.keys(matrix),
      ...(Array.isArray(include) ? include.filter(isPlainObject).flatMap(Object.keys) : []),
    ]),
  ].filter((axis) => findAxis(axis) || /^[A-Z]/.test(axis));
}

function listValues({ matrix, include }, axis) {
  const fromMatrix = ensureList(matrix[axis] ?? []).map((value) => normalizeAxisValue(axis, value));
  const fromInclude = (Array.isArray(include) ? include : [])
    .filter((entry) => isPlainObject(entry) && entry[axis] !== undefined)
    .map((entry) => normalizeAxisValue(axis, entry[axis]));
  return [...fromMatrix, ...fromInclude];
}

/** 0.05, "5%" → 0.05; undefined for anything else or outside (0, 1). */
export function parseFraction(value) {
  const fraction =
    typeof value === 'number'
      ? value
      : new RegExp(PERCENT_PATTERN).test(value)
        ? Number(value.slice(0, -1)) / 100
        : undefined;
  return fraction > 0 && fraction < 1 ? fraction : undefined;
}

/** The recommend block as advice reads it: defaults filled, `within` a fraction, `default` normalized. */
export function normalizeRecommend(recommend) {
  if (!recommend) return undefined;
  return {
    metric: recommend.metric ?? null,
    per: recommend.per ?? null,
    within: parseFraction(recommend.within ?? RECOMMEND_DEFAULTS.within),
    prefer: recommend.prefer ?? RECOMMEND_DEFAULTS.prefer,
    require: recommend.require ?? {},
    default: recommend.default
      ? Object.fromEntries(
          Object.entries(recommend.default).map(([axis, value]) => [axis, normalizeAxisValue(axis, value)]),
        )
      : null,
  };
}
