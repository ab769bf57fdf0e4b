// The JSON Schema of experiments.yml, built from the axis and workload tables. The same object drives ajv and,
// written out by write-schema.js, the editor completion of experiments.schema.json.

import { fileURLToPath } from 'node:url';
import { AXES, ENV_AXIS } from '../domain/axes.js';
import { CLAIMS_PROPERTY } from './check-claims.js';
import { RACE_PROPERTY, RECOMMEND_PROPERTY, SEARCH_PROPERTY } from './check-recommend.js';
import { SLO_PROPERTY } from './check-slo.js';
import { BATCH_DEFAULTS, EXPERIMENT_DEFAULTS } from './defaults.js';
import { BATCH_AGGREGATES } from '../../images/workload/lib/batches.js';
import { ENV_NAME_PATTERN } from '../domain/env-names.js';
import { MEMORY_PATTERN } from '../domain/memory.js';
import { PIVOT_METRICS } from '../domain/metrics.js';
import { PIVOT_STATS } from '../stats/statistics.js';
import { WORKLOADS } from '../domain/workloads.js';

export const SCHEMA_FILE = fileURLToPath(new URL('./experiments.schema.json', import.meta.url));

// Experiment names become results/<name>-<timestamp>/ folders.
export const EXPERIMENT_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]*$';

export const EXPERIMENT_PROPERTIES = {
  description: {
    type: 'string',
    title: 'Description',
    description: 'What question this experiment answers; shown in the report.',
    examples: ['Does a bigger libuv pool help on 1 core?'],
  },
  repetitions: {
    type: 'integer',
    minimum: 1,
    default: EXPERIMENT_DEFAULTS.repetitions,
    examples: [3, 5],
    title: 'Repetitions',
    description:
      'Runs per cell, each in a fresh container. For a race (the default `search`), the start rounds every cell ' +
      `runs before the race gives more runs only to what is still open (default ${EXPERIMENT_DEFAULTS.repetitions}); ` +
      `with \`search: grid\`, every run the cell gets (default ${EXPERIMENT_DEFAULTS.grid_repetitions}).`,
  },
  warmup: {
    type: 'integer',
    minimum: 0,
    default: EXPERIMENT_DEFAULTS.warmup,
    examples: [1],
    title: 'Warm-up runs',
    description:
      'Extra runs per cell before the measured ones; recorded with `warmup` = true and left out of the statistics.',
  },
  adaptive: {
    title: 'Adaptive repetitions',
    description:
      'After `repetitions`, keep repeating a cell (up to `max_repetitions`) until the 95% confidence interval of the ' +
      'mean of its primary metric is narrower than `target_ci_pct` percent of the mean, and, with `claims: true`, ' +
      'while a claim that covers the cell is inconclusive. Give `target_ci_pct`, `claims: true` or both.',
    type: 'object',
    additionalProperties: false,
    properties: {
      max_repetitions: {
        type: 'integer',
        minimum: 2,
        default: EXPERIMENT_DEFAULTS.adaptive_max_repetitions,
        title: 'Most repetitions per cell',
        examples: [10],
      },
      target_ci_pct: {
        type: 'number',
        exclusiveMinimum: 0,
        title: 'Target CI half-width (% of the mean)',
        examples: [5],
      },
      claims: {
        type: 'boolean',
        title: 'Until the claims are decided',
        description: 'Keep adding rounds for the cells of inconclusive claims.',
        examples: [true],
      },
    },
    examples: [
      { max_repetitions: 10, target_ci_pct: 5 },
      { max_repetitions: 12, claims: true },
    ],
  },
  disturbed_above: {
    type: 'number',
    exclusiveMinimum: 0,
    default: EXPERIMENT_DEFAULTS.disturbed_above,
    examples: [25, 50],
    title: 'Disturbed above (% interference)',
    description:
      'A run whose `interference_pct` (the CPU time the rest of the host used while the run was measured, as a share ' +
      'of the CPU time the run was allowed) is above this is marked `disturbed`: kept in runs.csv, left out of the ' +
      'statistics, and its cell gets one more run (at most `max_reruns`). Decided on the interference alone, never on ' +
      'the measured value. The share can pass 100 (others on more CPUs than the run was allowed).',
  },
  busy_wait: {
    type: 'number',
    minimum: 0,
    default: EXPERIMENT_DEFAULTS.busy_wait,
    examples: [120, 0],
    title: 'Most seconds to wait for a quiet host',
    description:
      'When 3 runs in a row come out disturbed, the runner stops starting runs and samples the host until the next ' +
      'run would not be disturbed, then goes on; this many seconds at most over the whole experiment (it says on ' +
      'stderr that it waits and why). Once spent, runs go on and are marked as before; the closing lines and ' +
      'report.md say how long the host was busy. 0: never wait.',
  },
  max_reruns: {
    type: 'integer',
    minimum: 0,
    default: EXPERIMENT_DEFAULTS.max_reruns,
    examples: [2, 0],
    title: 'Most re-runs per cell',
    description:
      'How many disturbed runs of one cell are run again, in all (a --resume counts the ones before); 0: none, the disturbed runs are only marked.',
  },
  timeout: {
    type: 'number',
    exclusiveMinimum: 0,
    default: EXPERIMENT_DEFAULTS.timeout,
    examples: [120, 300],
    title: 'Timeout (seconds)',
    description: 'Seconds per run; a run past it is killed and recorded as `timeout`.',
  },
  memory: {
    type: 'string',
    pattern: MEMORY_PATTERN,
    default: EXPERIMENT_DEFAULTS.memory,
    examples: ['512m', '1g'],
    title: 'Memory limit',
    description: 'Container memory limit in Docker notation (512m, 1g, 1.5g), at least 16m.',
  },
  env: {
    $ref: '#/definitions/env',
  },
  matrix: {
    $ref: '#/definitions/matrix',
  },
  include: {
    title: 'Include',
    description:
      'Entries that extend matching cells or add new ones (GitHub Actions strategy.matrix semantics). ' +
      'Each entry maps axes to one value.',
    type: 'array',
    items: { $ref: '#/definitions/entry' },
    examples: [[{ cpus: 1, cpuset: '0', uv_threadpool_size: 4, workload: 'pbkdf2' }]],
  },
  exclude: {
    title: 'Exclude',
    description:
      'Entries that drop every cell they match (GitHub Actions strategy.matrix semantics). ' +
      "Each entry maps axes of this experiment's matrix to one value.",
    type: 'array',
    items: { $ref: '#/definitions/entry' },
    examples: [[{ cpus: 1, uv_threadpool_size: 8 }]],
  },
  params: {
    $ref: '#/definitions/params',
  },
  production: {
    title: 'Where production sets each knob',
    description:
      'The knobs your service has where it is deployed, each axis name with where production sets it (a file and line, ' +
      'an environment variable): `init` writes it from what it read of your service, and `plan` shows it. An axis of the ' +
      'matrix that is not named here was added by hand and has no production twin in this service: the advice says so when ' +
      'it recommends a setting of it. Leave it out for a file that measures no particular service.',
    type: 'object',
    propertyNames: { anyOf: [{ enum: Object.keys(AXES) }, { pattern: ENV_AXIS.pattern }] },
    additionalProperties: { type: 'string', minLength: 1 },
    examples: [
      {
        cpus: 'k8s/deployment.yaml:21 limits.cpu',
        uv_threadpool_size: "UV_THREADPOOL_SIZE in the service's environment",
      },
    ],
  },
  claims: CLAIMS_PROPERTY,
  recommend: RECOMMEND_PROPERTY,
  search: SEARCH_PROPERTY,
  race: RACE_PROPERTY,
  slo: SLO_PROPERTY,
  image: {
    title: 'Image',
    description:
      'Where the Node.js of the containers comes from: `auto` (default) the official node:<major>-bookworm-slim when ' +
      'the Docker engine has it or can pull it, else the offline base built here (needs root once); `official` only the ' +
      'official image; `local` only the offline base; or the name of an image with Node.js (checked; its version is ' +
      'recorded). One choice for every `node` value, or a mapping Node major → choice.',
    anyOf: [
      {
        type: 'string',
        minLength: 1,
        examples: ['auto', 'official', 'local', 'registry.example/node:24-bookworm-slim'],
      },
      {
        type: 'object',
        minProperties: 1,
        additionalProperties: false,
        patternProperties: { '^[1-9][0-9]*$': { type: 'string', minLength: 1, examples: ['official'] } },
      },
    ],
    examples: ['auto', { 20: 'local', 24: 'official' }],
  },
  report: {
    title: 'Report',
    description:
      'How summary.csv, the pivot tables, report.md and report.html present this experiment. `baseline` (axis → one value) ' +
      'picks the cell of each workload that speedup and efficiency are measured against; default: the one with the least ' +
      'CPU capacity, then the fewest processes and threads.',
    type: 'object',
    additionalProperties: false,
    properties: {
      baseline: {
        $ref: '#/definitions/entry',
        examples: [{ cpus: 1, uv_threadpool_size: 1 }],
      },
      pivots: {
        title: 'Pivot tables',
        description:
          'Tables to write as pivot-*.csv and into the reports, one per workload (and per combination of the other axes that vary). Default: uv_threadpool_size (or workers, cluster) down, cpus (or cpuset, node) across, the median of each primary metric.',
        type: 'array',
        minItems: 1,
        items: { $ref: '#/definitions/reportPivot' },
        examples: [[{ rows: 'uv_threadpool_size', columns: 'cpus' }]],
      },
    },
    examples: [
      { baseline: { cpus: 1, uv_threadpool_size: 1 }, pivots: [{ rows: 'uv_threadpool_size', columns: 'cpus' }] },
    ],
  },
  round_order: {
    type: 'string',
    enum: ['shuffled', 'abba'],
    default: EXPERIMENT_DEFAULTS.round_order,
    examples: ['shuffled', 'abba'],
    title: 'Order within a round',
    description:
      '`shuffled` (default): each round runs every cell once in an order shuffled from the seed. `abba`: the cells of ' +
      'a CPU budget (the `recommend.per` axes, default cpus, cpuset, node, engine, and the workload) run back to back, ' +
      'and each round runs in the mirror order of the one before (A B C D, then D C B A), a new seeded order every two ' +
      'rounds: the settings a budget compares run close in time, and a slow drift falls on each alike over a pair of rounds.',
  },
  speed_probe: {
    type: 'boolean',
    default: EXPERIMENT_DEFAULTS.speed_probe,
    examples: [true],
    title: 'Speed probe',
    description:
      'Run a fixed piece of single-thread CPU work (≈ 0.1 s) in each container before the workload, outside every time ' +
      'it reports, and record its time (`speed_probe_ms`, `speed_probe_cpu_ms`): how fast the CPU was just before the ' +
      'run, for an analysis that takes it out of the comparison (docs/bench-noise.md). Not for `command`.',
  },
  batches: {
    type: 'object',
    additionalProperties: false,
    required: ['count'],
    title: 'Batches per container',
    description:
      "Run the workload's tasks `count` times in each container, after `warmup` batches that are timed but not counted " +
      "(pyperf's values per process); `wall_ms` is the `aggregate` of the measured batches, the CPU counters are per " +
      'batch, and tasks.csv keeps every batch (`batch`). Only for fixed-work workloads (pbkdf2, argon2, sum).',
    properties: {
      count: { type: 'integer', minimum: 1, maximum: 100, title: 'Measured batches', examples: [3] },
      warmup: {
        type: 'integer',
        minimum: 0,
        maximum: 100,
        default: BATCH_DEFAULTS.warmup,
        title: 'Warm-up batches',
        examples: [1],
      },
      aggregate: {
        type: 'string',
        enum: BATCH_AGGREGATES,
        default: BATCH_DEFAULTS.aggregate,
        title: "The run's value",
        description: "`median` (default) or `mean` of the measured batches' wall times.",
      },
    },
    examples: [{ count: 3 }, { count: 5, warmup: 1, aggregate: 'mean' }],
  },
};

const ENGINES_PROPERTY = {
  title: 'Engines',
  description:
    'Docker engines the matrix runs on: Docker CLI context names (as `docker context ls` shows them) or URLs ' +
    '(unix:///path, tcp://host:2376, ssh://user@host). --engine on the command line replaces this list. ' +
    'Default: DOCKER_HOST or the local socket.',
  type: 'array',
  minItems: 1,
  uniqueItems: true,
  items: { type: 'string', minLength: 1, examples: ['laptop'] },
  examples: [['laptop', 'ssh://lab@server']],
};

const KUBERNETES_PROPERTY = {
  title: 'Kubernetes',
  description:
    'Run every experiment on a Kubernetes cluster instead of Docker engines: one Job per run, on the nodes of ' +
    '`node_pool`, in `namespace` (docs/kubernetes.md). Not with `engines:` or an `engine` axis.',
  type: 'object',
  additionalProperties: false,
  properties: {
    context: {
      type: 'string',
      minLength: 1,
      title: 'kubeconfig context',
      description:
        "A context of the kubeconfig (as `kubectl config get-contexts` lists them); default: the file's current one.",
      examples: ['production-eu'],
    },
    namespace: {
      type: 'string',
      pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$',
      maxLength: 63,
      title: 'Namespace',
      description: "Where the Jobs go; default: the context's namespace, else `default`.",
      examples: ['node-threads-lab'],
    },
    kubeconfig: {
      type: 'string',
      minLength: 1,
      title: 'kubeconfig file',
      description: 'Relative to this file; default: KUBECONFIG, else ~/.kube/config.',
      examples: ['~/.kube/config'],
    },
    node_pool: {
      type: 'object',
      title: 'Node pool',
      description:
        "A node selector: node labels and values, so the runs land on the nodes production uses (e.g. GKE's " +
        "`cloud.google.com/gke-nodepool`, EKS's `eks.amazonaws.com/nodegroup`). Default: any node.",
      minProperties: 1,
      additionalProperties: { type: 'string' },
      examples: [{ 'cloud.google.com/gke-nodepool': 'api-pool' }],
    },
    registry: {
      type: 'string',
      minLength: 1,
      title: 'Image registry',
      description:
        'Where the nodes pull the workload image from (`registry.example.com/team`): the image is tagged ' +
        '<registry>/node-threads-lab/workload:<tag> here and `push` sends it. Without it the image must be preloaded ' +
        'on the nodes (imagePullPolicy Never).',
      examples: ['registry.example.com/team'],
    },
    push: {
      type: 'string',
      minLength: 1,
      title: 'Push command',
      description:
        'Your command that puts an image where the nodes find it, `{image}` standing for it, run once per image ' +
        'before the first run: `docker push {image}`, `kind load docker-image {image}`. Default: none (already there).',
      examples: ['docker push {image}'],
    },
    lanes: {
      type: 'integer',
      minimum: 1,
      default: 1,
      title: 'Runs at once',
      description:
        "At most this many runs at the same time, bounded at start by what the nodes hold and the namespace's " +
        'ResourceQuotas. Runs side by side on one node disturb each other: raise it for a pool of several nodes.',
      examples: [2],
    },
  },
  examples: [
    {
      context: 'kube-lab',
      namespace: 'node-threads-lab',
      node_pool: { 'kubernetes.io/hostname': 'kube-lab-node' },
    },
  ],
};

const EXPERIMENTS_PROPERTY = {
  title: 'Experiments',
  description:
    'Experiment name → experiment. The name becomes the results folder and the `experiment` CSV column, ' +
    'so it is letters, digits, `.`, `_` and `-`.',
  type: 'object',
  minProperties: 1,
  propertyNames: { pattern: EXPERIMENT_NAME_PATTERN },
  examples: [{ first: { matrix: { workload: 'pbkdf2', uv_threadpool_size: [1, 4] } } }],
  additionalProperties: { $ref: '#/definitions/experiment' },
};

const REPORT_PIVOT_DEFINITION = {
  title: 'Pivot table',
  description: 'One axis down, another across, a statistic of a metric in each cell.',
  type: 'object',
  additionalProperties: false,
  required: ['rows'],
  examples: [{ rows: 'uv_threadpool_size', columns: 'cpus' }],
  properties: {
    rows: {
      type: 'string',
      title: 'Row axis',
      description: 'The axis down the table.',
      examples: ['uv_threadpool_size', 'workers'],
    },
    columns: {
      type: 'string',
      title: 'Column axis',
      description: 'The axis across the table; leave out for one column.',
      examples: ['cpus', 'cpuset'],
    },
    metric: {
      type: 'string',
      enum: PIVOT_METRICS,
      title: 'Metric',
      description: "A runs.csv metric, speedup or efficiency; default: each of the workload's primary metrics.",
    },
    stat: {
      type: 'string',
      enum: PIVOT_STATS,
      default: 'median',
      title: 'Statistic',
      description: 'Which statistic of the metric each cell shows (only median for what the process saw).',
    },
  },
};

export function buildSchema() {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'node-threads-lab experiments',
    description:
      'What `npm run matrix` runs: one matrix of Docker runs per experiment. Reference: docs/experiments.md.',
    type: 'object',
    required: ['experiments'],
    additionalProperties: false,
    properties: { engines: ENGINES_PROPERTY, kubernetes: KUBERNETES_PROPERTY, experiments: EXPERIMENTS_PROPERTY },
    definitions: {
      experiment: {
        title: 'Experiment',
        description: 'One matrix: every combination of the axis values is a cell, each run `repetitions` times.',
        type: 'object',
        required: ['matrix'],
        additionalProperties: false,
        properties: EXPERIMENT_PROPERTIES,
        examples: [{ matrix: { workload: 'pbkdf2', uv_threadpool_size: [1, 4] } }],
      },
      ...buildEnvDefinitions(),
      ...buildAxisDefinitions(),
      reportPivot: REPORT_PIVOT_DEFINITION,
      ...buildParamsDefinitions(),
    },
  };
}

function buildEnvDefinitions() {
  return {
    env: {
      title: 'Environment',
      description:
        'Environment variables set in every run of this experiment. UV_THREADPOOL_SIZE has its own axis; ' +
        'names starting with LAB_ are reserved for the runner.',
      type: 'object',
      additionalProperties: false,
      patternProperties: { [ENV_NAME_PATTERN]: { $ref: '#/definitions/envValue' } },
      examples: [{ NODE_OPTIONS: '--max-old-space-size=512' }],
    },
    envValue: {
      title: 'Environment variable value',
      description: 'Reaches the process as a string.',
      type: ['string', 'number', 'boolean'],
      examples: ['--max-old-space-size=512'],
    },
  };
}

// The matrix (axis → values), one include/exclude entry (axis → value), and each axis' value.
function buildAxisDefinitions() {
  return {
    matrix: {
      title: 'Matrix',
      description: 'Axis → list of values; every combination is one cell. A single value is a one-value list.',
      type: 'object',
      minProperties: 1,
      additionalProperties: false,
      properties: mapAxes((name) => buildAxisList(name)),
      patternProperties: { [ENV_AXIS.pattern]: buildAxisList('envAxis') },
      examples: [{ workload: ['pbkdf2'], cpus: [1, 2], uv_threadpool_size: [1, 2, 4] }],
    },
    entry: {
      title: 'Matrix entry',
      description: 'Axis → one value.',
      type: 'object',
      minProperties: 1,
      additionalProperties: false,
      properties: mapAxes((name) => ({ $ref: `#/definitions/${name}` })),
      patternProperties: { [ENV_AXIS.pattern]: { $ref: '#/definitions/envAxis' } },
      examples: [{ cpus: 1, uv_threadpool_size: 8 }],
    },
    ...mapAxes((name, axis) => buildAxisValue(axis)),
    envAxis: buildAxisValue(ENV_AXIS),
  };
}

// `params:` (workload → its parameters) and one definition per workload.
function buildParamsDefinitions() {
  return {
    params: {
      title: 'Workload parameters',
      description: 'Workload → parameters; anything left out takes its default.',
      type: 'object',
      examples: [{ pbkdf2: { iterations: 50000 } }],
      additionalProperties: false,
      properties: Object.fromEntries(
        Object.keys(WORKLOADS).map((name) => [name, { $ref: `#/definitions/params.${name}` }]),
      ),
    },
    ...Object.fromEntries(
      Object.entries(WORKLOADS).map(([name, workload]) => [`params.${name}`, buildParams(name, workload)]),
    ),
  };
}

function mapAxes(build) {
  return Object.fromEntries(Object.entries(AXES).map(([name, axis]) => [name, build(name, axis)]));
}

function buildAxisValue({ title, description, value }) {
  return { title, description, ...value };
}

/**
 * A list of values, or one value as shorthand. anyOf (not if/then) because editors complete it best; the one-value
 * branch is inline so ajv's errors say which branch they come from (translate-ajv-errors.js keeps one branch).
 */
function buildAxisList(name) {
  const axis = name === 'envAxis' ? ENV_AXIS : AXES[name];
  return {
    title: axis.title,
    description: axis.description,
    anyOf: [
      buildAxisValue(axis),
      { type: 'array', minItems: 1, uniqueItems: true, items: { $ref: `#/definitions/${name}` } },
    ],
    examples: [axis.example],
  };
}

function buildParams(name, { description, params }) {
  const example = buildParamsExample(params);
  return {
    title: `${name} parameters`,
    description,
    type: 'object',
    additionalProperties: false,
    properties: params,
    ...(example ? { examples: [example] } : {}),
  };
}

// One parameter with a value worth showing (its example, else a default that says something): what a hint offers.
function buildParamsExample(params) {
  for (const [param, schema] of Object.entries(params)) {
    const value = schema.examples?.[0] ?? schema.default;
    if (value !== undefined && value !== '' && typeof value !== 'object') return { [param]: value };
  }
  return undefined;
}
