// The matrix axes: what each means, which values it takes, how a value is normalized, and how reports
// label and lay it out. The one table every stage reads: the schema, error messages and hints (config),
// the environment a run gets (plan), the runs.csv axis columns (collect: AXIS_COLUMNS), the axis labels
// and pivot layout (report). Adding an axis is one entry here plus what it does to a container (plan).
//   label   axis name, meaning and unit, for chart axes and heatmaps
//   pivot   'column': preferred across a default pivot table; 'row': preferred down it
//   env     the container environment variable the value is passed in

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
  },
  workers: {
    label: 'workers: worker_threads (threads)',
    pivot: 'row',
    title: 'Worker threads',
    meaning: 'worker_threads per process; 0 = main thread only',
    description: 'worker_threads per process; 0 = main thread only.',
    value: { type: 'integer', minimum: 0, examples: [0, 2, 4] },
    example: [0, 2],
  },
  cluster: {
    label: 'cluster: processes',
    pivot: 'row',
    title: 'Cluster processes',
    meaning: 'node:cluster processes; 0 = no cluster',
    description: 'node:cluster processes; 0 = no cluster.',
    value: { type: 'integer', minimum: 0, examples: [0, 2] },
    example: [0, 2],
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
  },
  engine: {
    title: 'Docker engine',
    description:
      'The engine a cell runs on, as named by --engine or the top-level `engines:` list (a Docker CLI context or a URL): ' +
      'the machine becomes a compared factor. Without this axis every cell is spread over all engines. ' +
      'As a runs.csv column it is always filled: the engine the run went to.',
    value: { type: 'string', minLength: 1, examples: ['laptop', 'server'] },
    example: ['laptop', 'server'],
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
};

/** The definition of a built-in axis or an environment-variable axis, or undefined for an unknown key. */
export function findAxis(name) {
  if (Object.hasOwn(AXES, name)) return AXES[name];
  return isEnvAxisName(name) ? ENV_AXIS : undefined;
}

export function normalizeAxisValue(name, value) {
  return findAxis(name)?.normalize?.(value) ?? value;
}
