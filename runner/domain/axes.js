// The matrix axes: what each means, which values it takes, how a value is normalized, and how reports
// label and lay it out. The one table every stage reads: the schema, error messages and hints (config),
// the environment a run gets (plan), the runs.csv axis columns (collect: AXIS_COLUMNS), the axis labels
// and pivot layout (report). Adding an axis is one entry here plus what it does to a container (plan).
//   label   axis name, meaning and unit, for chart axes and heatmaps
//   pivot   'column': preferred across a default pivot table; 'row': preferred down it
//   env     the container environment variable the value is passed in
//   production  what a person deploys to get this setting outside the lab, per shape of the code measured
//           (productionShape): { default: { words, twin }, <shape>: { words, twin } }; `words` has {value} (and
//           {name} for an env axis) to fill; twin false: the lab's shape has no production twin. docs/own-code.md
//           says the same (test/unit/domain/production.test.js keeps them together); advice can quote it.

import { CPUSET_PATTERN } from '../../images/workload/lib/cpuset.js';
import { CPU_QUANTITY_PATTERN, parseCpuAmount } from './cpu-quantity.js';
import { ENV_AXIS_PATTERN, isEnvAxisName } from './env-names.js';
import { WORKLOAD_NAMES } from './workloads.js';

export const AXES = {
  cpus: {
    label: 'cpus: CPU quota (CPUs)',
    pivot: 'column',
    title: 'CPU quota',
    description:
      'CPUs the container may use, as `docker run --cpus` (CFS quota): a number (0.5, 1.5, up to 3 decimals) or a ' +
      'Kubernetes CPU quantity as `resources.limits.cpu` writes it ("1500m", "0.5", "2"); at most the host CPU count. ' +
      'Reports and runs.csv show the number (1500m is 1.5).',
    // The pattern applies to strings only, the bounds to numbers only (JSON Schema): one definition for both forms.
    value: {
      type: ['number', 'string'],
      exclusiveMinimum: 0,
      multipleOf: 0.001,
      pattern: CPU_QUANTITY_PATTERN,
      examples: [0.5, 1, 2, '1500m'],
    },
    example: [1, 2],
    normalize: (value) => parseCpuAmount(value) ?? value,
    // Written as given in the file, always a number once normalized: runs.csv reads it back as one.
    columnType: 'number',
    production: {
      default: {
        words:
          "a CPU limit of {value} on the service's container: Kubernetes `resources.limits.cpu` ({value} CPUs), `docker run --cpus {value}`, Compose `cpus: {value}`",
        twin: true,
      },
    },
  },
  cpuset: {
    label: 'cpuset: CPUs pinned (ids)',
    pivot: 'column',
    title: 'CPU set',
    description:
      'CPUs the container may run on, as `docker run --cpuset-cpus`: "0", "0-1", "0,2", "0-1,3". ' +
      'Every CPU named must exist on the host; ranges go low-high.',
    value: { type: ['string', 'integer'], pattern: CPUSET_PATTERN, minimum: 0, examples: ['0', '0-1', '0,2'] },
    example: ['0', '0-1'],
    // `cpuset: 0` is an integer in YAML; Docker and the CSV want the text.
    normalize: String,
    production: {
      default: {
        words:
          "the container pinned to CPUs {value}: `docker run --cpuset-cpus {value}`, Compose `cpuset`; Kubernetes names no CPUs, but gives a Guaranteed pod with whole-CPU requests CPUs of its own under the kubelet's static CPU manager policy",
        twin: true,
      },
    },
  },
  uv_threadpool_size: {
    label: 'uv_threadpool_size: libuv pool (threads)',
    pivot: 'row',
    env: 'UV_THREADPOOL_SIZE',
    title: 'libuv thread pool size',
    description: 'UV_THREADPOOL_SIZE of the Node.js process: threads serving crypto.pbkdf2, fs, dns.lookup, zlib.',
    value: { type: 'integer', minimum: 1, maximum: 1024, examples: [1, 4, 8] },
    example: [1, 2, 4],
    // What libuv uses when UV_THREADPOOL_SIZE is unset: a cell without this axis has this many pool threads.
    unset: 4,
    production: {
      default: {
        words:
          "UV_THREADPOOL_SIZE={value} in the service's environment (Dockerfile `ENV`, the Deployment's `env:`, Compose `environment:`), read once when the pool first starts",
        twin: true,
      },
    },
  },
  workers: {
    label: 'workers: worker_threads (threads)',
    pivot: 'row',
    title: 'Worker threads',
    meaning: 'worker_threads per process; 0 = main thread only',
    description: 'worker_threads per process; 0 = main thread only.',
    value: { type: 'integer', minimum: 0, examples: [0, 2, 4] },
    example: [0, 2],
    production: {
      default: {
        words:
          "a pool of {value} worker threads per process running the tasks (for `script`, your function's calls): the lab deals them round-robin, all at once; a pool such as piscina (minThreads and maxThreads both {value}: its defaults follow os.availableParallelism(), which ignores a CPU quota) hands each to a thread as one frees up",
        twin: true,
      },
      http: {
        words:
          "a pool of {value} worker threads per process that the route hands each request's work to, the thread with the fewest requests in flight first, while the event loop only parses and answers (e.g. piscina with minThreads and maxThreads both {value} and a concurrentTasksPerWorker high enough to take every request at once)",
        twin: true,
      },
      app: {
        words:
          "no production twin: the lab runs your whole app in {value} worker threads and copies each connection's bytes to one of them; Node.js shares no port between threads, so a deployment gets this parallelism from processes (cluster) or from a pool for the heavy work only",
        twin: false,
      },
    },
  },
  cluster: {
    label: 'cluster: processes',
    pivot: 'row',
    title: 'Cluster processes',
    meaning: 'node:cluster processes; 0 = no cluster',
    description: 'node:cluster processes; 0 = no cluster.',
    value: { type: 'integer', minimum: 0, examples: [0, 2] },
    example: [0, 2],
    production: {
      default: {
        words:
          "{value} processes sharing the container's CPU budget, the tasks dealt round-robin among them: node:cluster or child_process.fork with {value} workers in one container; {value} replicas are the same only if each gets 1/{value} of the budget",
        twin: true,
      },
      http: {
        words:
          "{value} processes sharing the port and the container's CPU budget: node:cluster with {value} workers, or PM2 cluster mode with `instances: {value}`, in one container; {value} replicas behind the orchestrator are the same only if each replica gets 1/{value} of the budget",
        twin: true,
      },
    },
  },
  workload: {
    label: 'workload',
    title: 'Workload',
    description: `What each run computes: ${WORKLOAD_NAMES.join(', ')}. Tune it under \`params:\`.`,
    value: { type: 'string', enum: WORKLOAD_NAMES, examples: WORKLOAD_NAMES },
    example: WORKLOAD_NAMES,
  },
  node: {
    label: 'node: Node.js major version',
    pivot: 'column',
    title: 'Node.js major version',
    description: 'Node.js major version of the container image (e.g. 20, 22, 24).',
    value: { type: 'integer', minimum: 18, examples: [20, 22, 24] },
    example: [20, 22],
    production: { default: { words: "Node.js {value} in the service's image (`FROM node:{value}`)", twin: true } },
  },
  engine: {
    title: 'Docker engine',
    description:
      'The engine a cell runs on, as named by --engine or the top-level `engines:` list (a Docker CLI context or a URL): ' +
      'the machine becomes a compared factor. Without this axis every cell is spread over all engines. ' +
      'As a runs.csv column it is always filled: the engine the run went to.',
    value: { type: 'string', minLength: 1, examples: ['laptop', 'server'] },
    example: ['laptop', 'server'],
    production: { default: { words: 'the machine the service is deployed on (here: engine {value})', twin: true } },
  },
};

/** The built-in axes; every other (UPPER_SNAKE_CASE) axis is an environment variable. */
export const AXIS_NAMES = Object.keys(AXES);

/** runs.csv's axis columns: workload first (it says what the row measured), then the table's order. */
export const AXIS_COLUMNS = ['workload', ...AXIS_NAMES.filter((name) => name !== 'workload')];

/** Built-in axes a default pivot prefers across ('column') or down ('row'), in table order. */
export function listPivotAxes(role) {
  return AXIS_NAMES.filter((name) => AXES[name].pivot === role);
}

/** The Node.js major of a cell without a `node` axis (its workload image: runner/docker/images/workload-image.js). */
export const DEFAULT_NODE_MAJOR = 24;

/** Any UPPER_SNAKE_CASE key of a matrix sets that environment variable in the container. */
export const ENV_AXIS = {
  pattern: ENV_AXIS_PATTERN,
  title: 'Environment variable axis',
  description:
    'An UPPER_SNAKE_CASE key is an environment variable set in the container, one value per cell. ' +
    'Values are strings, numbers or booleans and reach the process as strings.',
  value: { type: ['string', 'number', 'boolean'], examples: ['--max-semi-space-size=64'] },
  example: ['a', 'b'],
  normalize: String,
  production: { default: { words: "{name}={value} in the service's environment", twin: true } },
};

/** The definition of a built-in axis or an environment-variable axis, or undefined for an unknown key. */
export function findAxis(name) {
  if (Object.hasOwn(AXES, name)) return AXES[name];
  return isEnvAxisName(name) ? ENV_AXIS : undefined;
}

export function normalizeAxisValue(name, value) {
  return findAxis(name)?.normalize?.(value) ?? value;
}

/**
 * The shape of the code a cell measures, which decides what an axis means in production: `tasks` (a built-in CPU
 * workload), `script` (your function), `http` (the lab's server), `app` (your app in the lab's harness), `start`
 * (your own start command), `command` (any program).
 */
export function productionShape(workload, params = {}) {
  if (workload === 'http') return params.start !== undefined ? 'start' : params.app ? 'app' : 'http';
  if (workload === 'script' || workload === 'command') return workload;
  return 'tasks';
}

/**
 * What a person deploys for `axis` = `value` in a cell of that shape: { words, twin } (twin false: no production twin),
 * or null for an axis without one (workload) or a value that turns the knob off (workers 0, cluster 0).
 */
export function describeProduction(axis, value, shape = 'tasks') {
  const production = findAxis(axis)?.production;
  if (!production || ((axis === 'workers' || axis === 'cluster') && Number(value) === 0)) return null;
  // Your app in the lab's processes is served as the lab's own server is.
  const { words, twin } = production[shape] ?? (shape === 'app' ? production.http : undefined) ?? production.default;
  return { words: words.replaceAll('{value}', String(value)).replaceAll('{name}', axis), twin };
}

/**
 * What production has of `axis` = `value` for this service: describeProduction's words and twin, and, where the
 * experiment records where production sets its knobs (`production:`, written by `init` from what it read of the
 * service), whether this axis is one of them: an axis that record does not name was added by hand, and has no
 * production twin in this service whatever the lab's shape (`byHand`). The advice reads it to say so.
 * @param {Record<string, string>|undefined} production  the experiment's `production:`
 * @returns {{ words: string, twin: boolean, byHand: boolean, where: string|null }|null}
 */
export function findProductionTwin(axis, value, shape, production) {
  const described = describeProduction(axis, value, shape);
  if (!described) return null;
  const byHand = Boolean(production) && !Object.hasOwn(production, axis);
  return { ...described, twin: described.twin && !byHand, byHand, where: production?.[axis] ?? null };
}
