// command: any command in any image the engine has, in any language. Nothing of ours runs inside
// it, so it is measured from outside (docker/runs/command-run.js): wall time from the engine, CPU time,
// throttling and peak memory from the container's cgroup. argv goes to the engine as an array: it
// never passes through a shell.

import path from 'node:path';
import { checkUserRoot, toUserMount, USER_MOUNT } from '../lib/user-files.js';

export const description =
  'Any command in any image on the engine, measured from outside: wall time, CPU time, throttling, peak memory ' +
  'and exit code. If its last stdout line is a JSON object of numbers, its keys become `user_<key>` columns.';

/** Runs outside our image: runner/docker/runs/command-run.js runs the user's image beside a cgroup watcher. */
export const external = true;

export const params = {
  image: {
    type: 'string',
    minLength: 1,
    examples: ['my-service:latest', 'python:3.12-slim'],
    title: 'Image',
    description:
      "An image present on the engine (nothing is pulled). Leave out for the lab's own image of the cell's `node` (Debian with node, perl, sh).",
  },
  argv: {
    type: 'array',
    minItems: 1,
    items: { type: 'string', minLength: 1 },
    examples: [['python3', 'bench.py']],
    title: 'Command',
    description:
      "The program and its arguments, run as given (no shell). A bare name is looked up in the image's PATH.",
  },
  tasks: {
    type: 'integer',
    minimum: 1,
    default: 1,
    examples: [1, 5],
    title: 'Times per run',
    description:
      "How many times each run starts the command, one after another, each in a fresh container with the cell's limits; each is a row of tasks.csv.",
  },
  root: {
    type: 'string',
    minLength: 1,
    examples: ['.', 'bench'],
    title: 'Folder to mount',
    description: `A folder mounted read-only at ${USER_MOUNT}, also the working directory; relative to the experiments file. Leave out to mount nothing.`,
  },
};

// Axes that shape a Node.js process the lab starts; a command is not one.
const NODE_ONLY_AXES = ['uv_threadpool_size', 'workers', 'cluster'];

export const required = ['argv'];
export const userColumns = true;

export const columns = [
  {
    name: 'cgroup_reading_final',
    unit: '',
    type: 'boolean',
    description:
      'every cgroup reading was taken after the command exited (exact); false: the last one, at most 5 ms before',
  },
];

export function checkParams(filled, _host, { configDir } = {}) {
  return checkUserRoot(filled.root, configDir);
}

/** An axis value the command cannot honour is a config error, not a silently ignored column. */
export function checkCell(values) {
  return NODE_ONLY_AXES.filter((axis) => values[axis] !== undefined).map((axis) => ({
    axis,
    message: `\`${axis}\` has no meaning for workload command (the lab does not start its process)`,
    hint: `remove \`${axis}\` from the matrix, or exclude it for command: \`exclude: [{workload: command, ${axis}: ${values[axis]}}]\``,
  }));
}

export function toContainer(filled, { configDir }) {
  if (filled.root === undefined) return { params: filled, mounts: [] };
  return { params: filled, mounts: [toUserMount(path.resolve(configDir, filled.root))], workingDir: USER_MOUNT };
}

// The capacity model of a command we cannot see into: the ideal. The cell with the fewest usable CPUs gives
// the time; every other cell takes that divided by its share of CPUs, as if the command used them all.
export const model = {
  calibration: () => ({ kind: 'lowest', parallelism: () => Infinity }),
  predict({ cpus }, { base, medians }) {
    return medians.wall_ms === undefined ? {} : { wall_ms: (medians.wall_ms * base.cpus) / cpus };
  },
  describe: ({ base, medians }) =>
    `ideal: ${medians.wall_ms?.toPrecision(3)} ms at ${base.cpus} CPUs, divided by each cell's CPUs`,
};
