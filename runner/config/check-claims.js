// `claims:` of an experiment: its schema fragment and the checks JSON Schema cannot express (the axis and values
// must exist in this experiment's cells, the metric must be one the workloads measure, one expect form).

import { findAxis, normalizeAxisValue } from '../domain/axes.js';
import { parseCpuAmount } from '../domain/cpu-quantity.js';
import { RUN_METRICS } from '../domain/columns.js';
import { listWorkloadColumns, readParamDefaults, WORKLOAD_NAMES } from '../domain/workloads.js';
import { suggestName } from '../../images/workload/lib/suggest.js';
import { ensureList, formatFlow, isPlainObject } from './values.js';
import { findMetric } from '../domain/metrics.js';
import { FIGURE_CONVERSIONS, listFigureQuotes, readFigure } from '../domain/figures.js';
import { MODEL_TOLERANCE } from '../verdicts/regions.js';

const CLAIM_EXAMPLE = {
  says: 'A pool of 4 finishes 16 pbkdf2 calls in half the time of a pool of 1',
  metric: 'wall_ms',
  compare: { uv_threadpool_size: [1, 4] },
  where: { cpus: 2 },
  expect: { ratio: 0.5, within: 0.1 },
};

const FRACTION = { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 };

const FIGURE_EXAMPLE = {
  quote: '약 6MB',
  what: 'RSS of each added idle thread',
  metric: 'rss_mb',
  per: { workers: [0, 16] },
  differs: "another Node.js: a worker thread's isolate and environment are Node 24's here",
};

// A file name stem: no path, so a claim can only name a text inside the folder the quote check is given.
const SOURCE_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]*$';

export const CLAIMS_PROPERTY = {
  title: 'Claims',
  description:
    'Statements this experiment tests, each checked with a 95% interval of the ratio B / A of a metric between two ' +
    'values of one axis, every other axis held equal: verdict holds, refuted or inconclusive (verdicts.csv, report.md, ' +
    '`npm run claims -- DIR`).',
  type: 'array',
  minItems: 1,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['says', 'compare', 'expect'],
    examples: [CLAIM_EXAMPLE],
    properties: {
      says: {
        type: 'string',
        minLength: 1,
        title: 'Says',
        description: 'The claim in words, shown as is.',
        examples: [CLAIM_EXAMPLE.says],
      },
      metric: {
        type: 'string',
        title: 'Metric',
        examples: ['wall_ms', 'requests_per_sec'],
        description:
          "Any numeric runs.csv column the workload reports; default: the workload's first primary metric. The one " +
          "metric the source's sentence is about: the claim's verdict and class are on it alone.",
      },
      compare: {
        type: 'object',
        title: 'Compare',
        minProperties: 1,
        examples: [{ uv_threadpool_size: [1, 4] }],
        description: 'Exactly one axis → [A, B]; the ratio is B / A. Every other axis is held equal.',
        additionalProperties: {
          type: 'array',
          minItems: 2,
          maxItems: 2,
          items: { type: ['string', 'number', 'boolean'], examples: [1, 4] },
          examples: [[1, 4]],
        },
      },
      where: {
        $ref: '#/definitions/entry',
        description:
          'Only cells with these axis values; without it the claim is checked in every combination of the other axes.',
        examples: [CLAIM_EXAMPLE.where],
      },
      expect: {
        // `model` alone is the one string form; every other form is an object (its keywords apply to objects only).
        type: ['object', 'string'],
        title: 'Expect',
        additionalProperties: false,
        minProperties: 1,
        if: { type: 'string' },
        then: { const: 'model' },
        description:
          '{ratio: R, within: W}: B/A inside [R(1−W), R(1+W)]; {below: R} / {above: R}: B/A below (above) R; ' +
          "{same: W}: B/A inside [1−W, 1+W] (equivalence); `model` or {model: W}: B/A inside the capacity model's " +
          'ratio for the pair ±W (default ±10%): the measurement agrees with what the host allows.',
        properties: {
          ratio: { type: 'number', exclusiveMinimum: 0, title: 'Expected ratio B / A', examples: [0.5] },
          within: { ...FRACTION, title: 'Relative tolerance around `ratio` (0.1 = ±10%)', examples: [0.1] },
          below: { type: 'number', exclusiveMinimum: 0, title: 'B / A is below this', examples: [0.8] },
          above: { type: 'number', exclusiveMinimum: 0, title: 'B / A is above this', examples: [0.9] },
          same: { ...FRACTION, title: 'B / A is within 1 ± this (0.05 = ±5%)', examples: [0.05] },
          model: {
            ...FRACTION,
            title: "B / A is within the capacity model's ratio ± this (0.1 = ±10%)",
            examples: [0.1],
          },
        },
        examples: [{ ratio: 0.5, within: 0.1 }, { below: 0.8 }, { same: 0.05 }, 'model', { model: 0.1 }],
      },
      beside: {
        type: 'array',
        title: 'Beside',
        minItems: 1,
        uniqueItems: true,
        items: { type: 'string', examples: ['requests_per_sec'] },
        examples: [['burst_first_p50_ms', 'requests_per_sec']],
        description:
          'Other metrics of the same runs, shown beside the claim with their ratio B / A and its interval, judged by ' +
          'nothing (no expectation): what else the same comparison moved. Numeric runs.csv columns, as `metric`.',
      },
      figures: {
        type: 'array',
        title: 'Figures',
        minItems: 1,
        description:
          "The post's own numbers the claim's quote prints, each tested on this host: the same quantity here, with its " +
          '95% interval, against the figure ± `within` (holds / refuted / inconclusive), with the reason it may differ.',
        examples: [[FIGURE_EXAMPLE]],
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['quote', 'what', 'differs'],
          examples: [FIGURE_EXAMPLE],
          properties: {
            quote: {
              type: 'string',
              minLength: 1,
              title: "The post's figure, as printed",
              examples: ['약 6MB', '31,836 KB..122,992 KB', '532ms'],
              description:
                'A number with its unit as the post prints it (in one of the claim\'s `quote` passages), or "A..B" ' +
                'for a step the post gives at both ends of `per`.',
            },
            what: { type: 'string', minLength: 1, title: 'What it is', examples: ['RSS of each added thread'] },
            metric: {
              type: 'string',
              title: 'Metric',
              examples: ['rss_mb'],
              description: "The runs.csv column that measures it here (default: the claim's metric).",
            },
            at: {
              $ref: '#/definitions/entry',
              description: "The cell's axis values (with the claim's `where`): one figure per cell that matches.",
              examples: [{ workers: 1 }],
            },
            per: {
              type: 'object',
              title: 'Per one more of',
              minProperties: 1,
              maxProperties: 1,
              examples: [{ workers: [0, 16] }],
              description: 'One axis → [a, b]: the figure is what one more of the axis adds, (b − a) cells apart.',
              additionalProperties: {
                type: 'array',
                minItems: 2,
                maxItems: 2,
                items: { type: 'number', examples: [0] },
                examples: [[0, 16]],
              },
            },
            divide: {
              type: 'number',
              exclusiveMinimum: 0,
              title: 'Divide by',
              examples: [16],
              description: 'The figure is each of this many (a run of 16 calls, the post\'s "one call").',
            },
            unit: {
              type: 'string',
              title: "The post's unit",
              examples: ['초'],
              description: 'Where the figure does not print its unit next to its number.',
            },
            within: {
              ...FRACTION,
              title: 'Band around the figure',
              examples: [0.1],
              description:
                'Here ÷ the post must lie in [1 − within, 1 + within] to hold (default 0.1: the post\'s "about").',
            },
            differs: {
              type: 'string',
              minLength: 1,
              title: 'Why it may differ here',
              examples: ["Node.js 24's worker isolate is not Node.js 16's"],
              description:
                "The model's or the platform's reason a figure measured there may differ here, in words: `npm run " +
                'check:quotes` finds its numbers in the post (no measured number typed).',
            },
          },
        },
      },
      post_setup: {
        type: 'object',
        title: "The post's setup",
        additionalProperties: false,
        minProperties: 1,
        examples: [{ operation: "argon2.hash('1234567')", packages: ['fastify@3'] }],
        description:
          'What the source ran, in its own words, so each deviation of ours is generated beside it (docs/findings.md): ' +
          '`operation`, its call per task as printed; `packages`, the packages it names as printed (`fastify@3`). ' +
          '`npm run check:quotes` finds each in the post.',
        properties: {
          operation: {
            type: 'string',
            minLength: 1,
            title: 'Its operation',
            examples: ["argon2.hash('1234567')"],
            description: "The source's call per task, as printed: set beside the workload's own (describeTask).",
          },
          packages: {
            type: 'array',
            minItems: 1,
            items: { type: 'string', minLength: 1, examples: ['fastify@3'] },
            examples: [['fastify@3', 'mustache@4']],
            title: 'Its packages',
            description: "Packages the source names, as printed (`fastify@3`): set beside the workload image's.",
          },
        },
      },
      post: {
        type: 'string',
        pattern: SOURCE_NAME_PATTERN,
        title: 'Post',
        examples: ['003'],
        description:
          'The published text the claim quotes: its file name in a folder of such texts without `.txt`, or the part ' +
          'before the first `_` (`003` names 003_ab0c82673193e8d3.txt). `npm run check:quotes` finds every number of ' +
          '`says` in that text.',
      },
      quote: {
        // A scalar first, a list second: the diagnostics read an anyOf that way (only the branch written is reported).
        anyOf: [
          { type: 'string', minLength: 1 },
          { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
        ],
        title: 'Quote',
        examples: ['4개단위씩 묶어서 숫자가 400ms씩 증가하는것을 볼수 있습니다'],
        description:
          "The post's own words, in the post's language: one passage, or a list of passages, each as the post prints " +
          'it (runs of spaces and line breaks count as one space). `npm run check:quotes` finds each passage in the ' +
          'post named by `post` and every number of `says` in the passages.',
      },
      direction: {
        type: 'string',
        pattern: '^(A|B) .+$',
        title: 'Direction',
        examples: ['B worse', 'A faster', 'B halved'],
        description:
          'Which way `says` puts B against A, as "A <word>" or "B <word>" with a word `says` holds (worse, faster, ' +
          'halved, more, nothing …): `npm run check:quotes` fails when `says` no longer holds the word (a reversed ' +
          'summary) or `expect` lies on the other side of 1.',
      },
      conditions: {
        type: 'object',
        title: 'Conditions',
        additionalProperties: false,
        minProperties: 1,
        examples: [
          { cpus: 1, params: { argon2: { tasks: 100 } } },
          { node: [20], note: 'the post names no version' },
        ],
        description:
          "What the post's result was measured on, named or implied by the post: the claim's class counts a hold " +
          'for the post, and a refutation against it, only where both cells meet them (docs/report.md, the class). A ' +
          'comparison on cells without the post\'s CPUs, version or sizes is "outside the post\'s conditions" whatever ' +
          'its verdict.',
        properties: {
          cpus: {
            title: "The post's CPUs",
            examples: [1, [1, 2]],
            description:
              "How many CPUs (cores, or a Docker CPU limit) the post's program had: a number for both cells, or " +
              '[A, B] for a claim that compares `cpus` or `cpuset` (what A and B had). A cell meets it when its usable ' +
              'CPUs (the smallest of its quota, its cpuset size and the host) are that number.',
            anyOf: [
              { type: 'number', exclusiveMinimum: 0 },
              { type: 'array', minItems: 2, maxItems: 2, items: { type: 'number', exclusiveMinimum: 0 } },
            ],
          },
          node: {
            title: "The post's Node.js majors",
            examples: [[20], 16],
            description: "Node.js major versions the post's result stands for: a number or a list.",
            anyOf: [
              { type: 'integer', minimum: 0 },
              { type: 'array', minItems: 1, items: { type: 'integer', minimum: 0 } },
            ],
          },
          params: {
            type: 'object',
            title: "The post's sizes",
            examples: [{ argon2: { tasks: 100 } }],
            description:
              'Workload → parameters the post ran with (`{argon2: {tasks: 100}}`); a cell meets them when its ' +
              'parameters have these values.',
            additionalProperties: { type: 'object', minProperties: 1 },
          },
          note: {
            type: 'string',
            minLength: 1,
            title: 'Note',
            examples: ['the post names no version; its code ran on Node 20 at the time'],
            description: 'Where the post says so, or why they are implied: shown with the class.',
          },
        },
      },
      not_comparable: {
        type: 'string',
        minLength: 1,
        title: 'Not comparable',
        examples: ["the histogram's mean is not the post's setImmediate delay"],
        description:
          "Why the metric does not measure the post's quantity: the claim is judged as any, and its class is " +
          '"not comparable" with this reason whatever the verdict.',
      },
      control: {
        type: 'boolean',
        title: 'Control',
        examples: [true],
        description:
          'Not a published claim but a check of the design (the same code on both sides, what the CPUs allow): judged ' +
          'like any claim, counted apart from the published ones in findings.md.',
      },
    },
  },
  examples: [[CLAIM_EXAMPLE]],
};

const EXPECT_FORMS = [['ratio', 'within'], ['below'], ['above'], ['same'], ['model']];

/** The numeric runs.csv columns a run of this workload fills, so a claim can be checked on them. */
export function claimableMetrics(workload) {
  return [
    ...RUN_METRICS,
    ...listWorkloadColumns(workload)
      .filter((column) => !column.type)
      .map((column) => column.name),
  ];
}

/** Issues in `claims` of one (schema-valid so far) experiment at path `at`. */
export function checkClaims(experiment, at) {
  if (!Array.isArray(experiment.claims) || !isPlainObject(experiment.matrix)) return [];
  const shapes = listCellShapes(experiment);
  return experiment.claims.flatMap((claim, index) =>
    isPlainObject(claim) ? checkClaim(claim, shapes, [...at, 'claims', index]) : [],
  );
}

/**
 * What the cells can hold, without expanding the matrix (that is plan's job, a later stage): the product of the
 * matrix lists, as one "cell" per workload with every axis' values, plus each include entry as it is. Enough to
 * know which axes and values exist and which workloads a `where` covers; an exclude never removes a whole value.
 */
function listCellShapes({ matrix, include }) {
  const lists = Object.fromEntries(
    Object.entries(matrix).map(([axis, values]) => [
      axis,
      ensureList(values).map((value) => normalizeAxisValue(axis, value)),
    ]),
  );
  const entries = Array.isArray(include) ? include.filter(isPlainObject) : [];
  const normalized = entries.map((entry) =>
    Object.fromEntries(Object.entries(entry).map(([axis, value]) => [axis, [normalizeAxisValue(axis, value)]])),
  );
  return [lists, ...normalized];
}

// Whether an axis a claim names is the experiment's, and a value one of its values; each miss pushed to `issues`.
function makeAxisChecks(shapes, issues) {
  const axes = [...new Set(shapes.flatMap(Object.keys))];
  const valuesOf = (axis) => [...new Set(shapes.flatMap((shape) => shape[axis] ?? []))];
  const checkAxis = (axis, keyPath) => {
    if (axes.includes(axis)) return true;
    const suggestion = suggestName(axis, axes);
    issues.push({
      path: keyPath,
      at: 'key',
      message: `\`${axis}\` is not an axis of this experiment; expected one of: ${axes.join(', ')}`,
      hint: suggestion
        ? `did you mean \`${suggestion}\`?`
        : 'a claim compares and selects cells by the axes of `matrix:` and `include:`',
    });
    return false;
  };
  const checkValue = (axis, value, valuePath) => {
    const known = valuesOf(axis);
    if (known.some((candidate) => String(candidate) === String(normalizeAxisValue(axis, value)))) return;
    issues.push({
      path: valuePath,
      message: `${formatFlow(value)} is not a value of \`${axis}\` in this experiment; expected one of: ${known.map(formatFlow).join(', ')}`,
      hint: `add it to \`matrix: {${axis}: ...}\`, or use a value the matrix has`,
    });
  };
  return { checkAxis, checkValue, valuesOf };
}

function checkClaim(claim, shapes, path) {
  const issues = [];
  const checks = makeAxisChecks(shapes, issues);
  if (isPlainObject(claim.compare)) checkCompare(claim, checks, issues, path);
  if (isPlainObject(claim.where)) {
    for (const [axis, value] of Object.entries(claim.where)) {
      // `where: {cpus: 150%}` is the schema's to report (not a CPU amount), not a value missing from the matrix.
      if (axis === 'cpus' && parseCpuAmount(value) === undefined) continue;
      if (findAxis(axis) && checks.checkAxis(axis, [...path, 'where', axis]))
        checks.checkValue(axis, value, [...path, 'where', axis]);
    }
  }
  if (isPlainObject(claim.conditions)) issues.push(...checkConditions(claim, shapes, [...path, 'conditions']));
  issues.push(...checkMeasures(claim, shapes, path));
  if (isPlainObject(claim.expect)) issues.push(...checkExpect(claim.expect, [...path, 'expect']));
  return issues;
}

// `compare`: one axis, two different values the matrix has, and not fixed by `where` too.
function checkCompare(claim, { checkAxis, checkValue, valuesOf }, issues, path) {
  const compared = Object.keys(claim.compare);
  if (compared.length > 1) {
    issues.push({
      path: [...path, 'compare', compared[1]],
      at: 'key',
      message: `\`compare\` names ${compared.length} axes (${compared.join(', ')}); expected exactly one axis, A then B`,
      hint: 'every other axis is held equal; write one claim per axis, and fix other axes with `where:`',
    });
  } else if (compared.length === 1 && checkAxis(compared[0], [...path, 'compare', compared[0]])) {
    const pair = claim.compare[compared[0]];
    if (Array.isArray(pair) && pair.length === 2) {
      pair.forEach((value, i) => checkValue(compared[0], value, [...path, 'compare', compared[0], i]));
      const [a, b] = pair.map((value) => String(normalizeAxisValue(compared[0], value)));
      if (a === b) {
        issues.push({
          path: [...path, 'compare', compared[0]],
          message: `A and B are both ${formatFlow(pair[0])}; expected two different values`,
          hint: `write e.g. \`compare: {${compared[0]}: ${formatFlow(valuesOf(compared[0]).slice(0, 2))}}\``,
        });
      }
    }
  }
  if (isPlainObject(claim.where) && compared.length === 1 && Object.hasOwn(claim.where, compared[0])) {
    issues.push({
      path: [...path, 'where', compared[0]],
      at: 'key',
      message: `\`${compared[0]}\` is compared, so \`where\` cannot fix it`,
      hint: `remove \`${compared[0]}\` from \`where:\``,
    });
  }
}

// What the claim measures: its metric, the metrics shown beside it, and the post's own figures.
function checkMeasures(claim, shapes, path) {
  const issues = [];
  if (typeof claim.metric === 'string') issues.push(...checkMetric(claim, claim.metric, shapes, [...path, 'metric']));
  if (Array.isArray(claim.beside))
    claim.beside.forEach((metric, i) => {
      if (typeof metric === 'string') issues.push(...checkMetric(claim, metric, shapes, [...path, 'beside', i]));
    });
  if (Array.isArray(claim.figures))
    claim.figures.forEach((figure, i) => {
      if (isPlainObject(figure)) issues.push(...checkFigure(claim, figure, shapes, [...path, 'figures', i]));
    });
  return issues;
}

// The post's CPUs as a pair only where the claim compares CPUs (A's and B's), as one number elsewhere; the post's
// sizes only for a workload the claim covers, by a parameter that workload has.
function checkConditions(claim, shapes, path) {
  const issues = [];
  const { cpus, params } = claim.conditions;
  const compared = isPlainObject(claim.compare) ? Object.keys(claim.compare)[0] : undefined;
  const comparesCpus = compared === 'cpus' || compared === 'cpuset';
  if (Array.isArray(cpus) && !comparesCpus)
    issues.push({
      path: [...path, 'cpus'],
      message: `a pair [A, B] says what each side of a CPU comparison had, and this claim compares \`${compared}\``,
      hint: `write the post's CPUs as one number, e.g. \`cpus: ${cpus[0]}\``,
    });
  if (typeof cpus === 'number' && comparesCpus)
    issues.push({
      path: [...path, 'cpus'],
      message: `this claim compares \`${compared}\`, so its two cells cannot both have ${cpus} CPUs`,
      hint: `write what the post's A and B had, e.g. \`cpus: [1, 2]\``,
    });
  if (isPlainObject(params)) {
    const workloads = [...new Set(shapes.flatMap((shape) => shape.workload ?? []))];
    for (const [workload, values] of Object.entries(params)) {
      if (!workloads.includes(workload)) {
        issues.push({
          path: [...path, 'params', workload],
          at: 'key',
          message: `\`${workload}\` is not a workload of this experiment; expected one of: ${workloads.join(', ')}`,
          hint: `name the workload whose parameters the post ran with, e.g. \`params: {${workloads[0] ?? 'pbkdf2'}: {tasks: 16}}\``,
        });
        continue;
      }
      if (!isPlainObject(values)) continue;
      const known = Object.keys(readParamDefaults(workload));
      for (const key of Object.keys(values).filter((each) => !known.includes(each))) {
        const suggestion = suggestName(key, known);
        issues.push({
          path: [...path, 'params', workload, key],
          at: 'key',
          message: `\`${key}\` is not a parameter of ${workload}; expected one of: ${known.join(', ')}`,
          hint: suggestion ? `did you mean \`${suggestion}\`?` : `the post's sizes, e.g. \`${known[0]}\``,
        });
      }
    }
  }
  return issues;
}

// A figure's cells exist, its metric is one the cells report, and its quote is a number in a unit of that metric.
function checkFigure(claim, figure, shapes, path) {
  const issues = [];
  const { checkAxis, checkValue } = makeAxisChecks(shapes, issues);
  for (const [key, entries] of [
    ['at', Object.entries(isPlainObject(figure.at) ? figure.at : {})],
    ['per', Object.entries(isPlainObject(figure.per) ? figure.per : {})],
  ])
    for (const [axis, value] of entries)
      // An axis no experiment has is the schema's to report (`where`, `at`); one of another experiment is this check's.
      if (findAxis(axis) && checkAxis(axis, [...path, key, axis]))
        [value]
          .flat()
          .forEach((each, i) => checkValue(axis, each, [...path, key, axis, ...(key === 'per' ? [i] : [])]));
  const metric = figure.metric ?? claim.metric;
  if (typeof figure.metric === 'string') issues.push(...checkMetric(claim, figure.metric, shapes, [...path, 'metric']));
  if (typeof figure.quote === 'string') issues.push(...checkFigureQuote(figure, metric, [...path, 'quote']));
  return issues;
}

function checkFigureQuote(figure, metric, path) {
  const quotes = listFigureQuotes(figure.quote);
  const unit = typeof metric === 'string' ? findMetric(metric).unit : null;
  let values;
  try {
    values = quotes.map((text) => readFigure(text));
  } catch (error) {
    return [{ path, message: error.message, hint: 'quote a number as the post prints it, e.g. `quote: "약 6MB"`' }];
  }
  const known = Object.keys(FIGURE_CONVERSIONS[unit] ?? {});
  const unknown = unit === null ? [] : values.filter((value) => !known.includes(figure.unit ?? value.unit));
  if (unknown.length > 0)
    return [
      {
        path,
        message: `cannot turn "${figure.unit ?? unknown[0].unit}" into ${unit || 'a metric without a unit'} (the unit of \`${metric}\`)`,
        hint: known.length
          ? `write the post's unit with \`unit: ${known[0]}\` (known: ${known.join(', ')}), or the metric that measures it`
          : 'name the metric that measures it, e.g. `metric: rss_mb` or `metric: wall_ms`',
      },
    ];
  if (values.length === 2 && !isPlainObject(figure.per))
    return [
      { path, message: 'two figures ("A..B") are a step', hint: 'give `per: {workers: [0, 16]}`, or quote one figure' },
    ];
  return values.length > 2 ? [{ path, message: `${values.length} figures`, hint: 'quote one, or `"A..B"`' }] : [];
}

function checkMetric(claim, metric, shapes, path) {
  const where = isPlainObject(claim.where) ? claim.where : {};
  const matches = (shape, axis) =>
    (shape[axis] ?? []).some((value) => String(value) === String(normalizeAxisValue(axis, where[axis])));
  const covered = shapes.filter((shape) => Object.keys(where).every((axis) => matches(shape, axis)));
  const workloads = [...new Set(covered.flatMap((shape) => shape.workload ?? []))].filter(
    (workload) => where.workload === undefined || String(where.workload) === workload,
  );
  const lacking = workloads.filter((workload) => !claimableMetrics(workload).includes(metric));
  if (lacking.length === 0) return [];
  const anyKnown = [...new Set(WORKLOAD_NAMES.flatMap(claimableMetrics))];
  if (!anyKnown.includes(metric)) {
    const suggestion = suggestName(metric, anyKnown);
    return [
      {
        path,
        message: `\`${metric}\` is not a numeric runs.csv column; expected e.g. ${claimableMetrics(workloads[0]).slice(0, 6).join(', ')}`,
        hint: suggestion
          ? `did you mean \`${suggestion}\`?`
          : 'any numeric column of runs.csv works, e.g. wall_ms, cpu_total_ms, peak_rss_mb',
      },
    ];
  }
  const measuring = workloads.filter((workload) => !lacking.includes(workload));
  return [
    {
      path,
      message: `the ${lacking.join(', ')} workload does not report \`${metric}\`, and this claim covers its cells`,
      hint: measuring.length
        ? `narrow the claim with \`where: {workload: ${measuring[0]}}\``
        : `use a metric ${lacking[0]} reports, e.g. ${claimableMetrics(lacking[0])[0]}`,
    },
  ];
}

function checkExpect(expect, path) {
  const keys = Object.keys(expect).sort();
  if (EXPECT_FORMS.some((form) => form.length === keys.length && [...form].sort().every((key, i) => key === keys[i])))
    return [];
  return [
    {
      path,
      message: `\`expect\` has ${keys.map((key) => `\`${key}\``).join(', ')}; expected exactly one form: {ratio: R, within: W}, {below: R}, {above: R}, {same: W} or {model: W}`,
      hint: 'write e.g. `expect: {ratio: 0.5, within: 0.1}` (B/A in [0.45, 0.55]) or `expect: {same: 0.05}`',
    },
  ];
}

/**
 * The claim as later stages read it: axis values normalized as the CSV has them, metric null when defaulted; `post`,
 * `quote` (always a list of passages), `conditions` (node always a list), `not_comparable`, `control` and `beside` only
 * where the file has them.
 */
export function normalizeClaim({
  says,
  post,
  quote,
  conditions,
  not_comparable: notComparable,
  control,
  metric,
  beside,
  figures,
  post_setup: postSetup,
  compare,
  where,
  expect,
}) {
  const [[axis, pair]] = Object.entries(compare);
  return {
    says,
    ...(post === undefined ? {} : { post }),
    ...(quote === undefined ? {} : { quote: [quote].flat() }),
    ...(conditions === undefined ? {} : { conditions: normalizeConditions(conditions) }),
    ...(notComparable === undefined ? {} : { not_comparable: notComparable }),
    ...(control === true ? { control } : {}),
    metric: metric ?? null,
    ...(beside === undefined ? {} : { beside }),
    compare: { [axis]: pair.map((value) => normalizeAxisValue(axis, value)) },
    where: Object.fromEntries(
      Object.entries(where ?? {}).map(([name, value]) => [name, normalizeAxisValue(name, value)]),
    ),
    // `expect: model` is {model: W} with the default tolerance.
    expect: expect === 'model' ? { model: MODEL_TOLERANCE } : expect,
    ...(figures === undefined ? {} : { figures: figures.map(normalizeFigure) }),
    ...(postSetup === undefined ? {} : { post_setup: postSetup }),
  };
}

// A figure's cells as the CSV has their values.
function normalizeFigure({ at, per, ...rest }) {
  const values = (entries) =>
    entries.map(([axis, value]) => [axis, [value].flat().map((each) => normalizeAxisValue(axis, each))]);
  return {
    ...rest,
    ...(at === undefined
      ? {}
      : { at: Object.fromEntries(values(Object.entries(at)).map(([axis, [value]]) => [axis, value])) }),
    ...(per === undefined ? {} : { per: Object.fromEntries(values(Object.entries(per))) }),
  };
}

// node as a list of majors; the rest as written.
function normalizeConditions({ node, ...rest }) {
  return { ...rest, ...(node === undefined ? {} : { node: [node].flat() }) };
}

/** `adaptive:` needs something to aim at: a CI target, the claims, or both. */
export function checkAdaptive({ adaptive, claims, search, slo }, at) {
  // A race aims its rounds at the advice, a capacity search (`slo:`) at its brackets: their cap alone is enough.
  if (
    !isPlainObject(adaptive) ||
    adaptive.target_ci_pct !== undefined ||
    adaptive.claims === true ||
    search === 'race' ||
    slo !== undefined
  ) {
    if (adaptive?.claims === true && !Array.isArray(claims)) {
      return [
        {
          path: [...at, 'adaptive', 'claims'],
          message: '`adaptive.claims` is true but the experiment has no `claims:`',
          hint: 'add `claims:` to the experiment, or use `target_ci_pct`',
        },
      ];
    }
    return [];
  }
  return [
    {
      path: [...at, 'adaptive'],
      message: '`adaptive` needs `target_ci_pct`, `claims: true` or both (or `search: race`, or `slo:`); found neither',
      hint: 'write e.g. `adaptive: {max_repetitions: 10, target_ci_pct: 5}` or `adaptive: {max_repetitions: 12, claims: true}`',
    },
  ];
}
