// script: the user's own function. One call is one task, dealt over cluster processes and worker
// threads exactly like a built-in workload's. Every thread that runs tasks imports the module itself
// before the start barrier (prepare), so loading stays out of task times. A thrown error or a rejected
// promise fails the run with the user's stack; a returned object of numbers becomes user_<key>
// metrics (the mean over the run's calls). The user's folder is bind-mounted read-only; LAB_SPEC
// carries the file's path inside the container (toContainer).

import { WorkloadError } from '../workload-error.js';
import { listThreadLoads, shareCpus } from '../lib/capacity.js';
import { checkUserFile, resolveUserFile, toUserMount } from '../lib/user-files.js';
import { averageUserNumbers, pickUserNumbers } from '../lib/user-numbers.js';
import { loadUserExport } from '../user/load-export.js';
import { formatUserError } from '../user/user-error.js';

export const description =
  'Your own function: `file` exports it (sync or async), `args` is its first argument, one call is one task. ' +
  "A returned object of numbers becomes `user_<key>` columns (the mean over the run's calls).";

export const params = {
  file: {
    type: 'string',
    minLength: 1,
    examples: ['bench/resize.js'],
    title: 'Module file',
    description:
      'The ES module or CommonJS file that exports the function, relative to the folder of the experiments file.',
  },
  export: {
    type: 'string',
    minLength: 1,
    default: 'default',
    examples: ['default', 'hashPassword'],
    title: 'Export name',
    description:
      'Which export is the function: `default`, or a named export. It may be sync or async; one call is one task.',
  },
  tasks: {
    type: 'integer',
    minimum: 1,
    default: 1,
    examples: [1, 16],
    title: 'Calls per run',
    description: 'How many calls each run starts at once, dealt over cluster processes and worker threads.',
  },
  args: {
    type: 'object',
    default: {},
    examples: [{ width: 800 }],
    title: 'Arguments',
    description:
      "Passed to every call as its first argument (JSON values); the second is `{ task }`, the call's index.",
  },
  root: {
    type: 'string',
    minLength: 1,
    examples: ['.', 'bench'],
    title: 'Folder to mount',
    description:
      "The folder mounted read-only into the container (its node_modules is used); default: the file's own folder. Relative to the experiments file.",
  },
};

export const required = ['file'];
export const userCode = { kind: 'function', at: [] };
export const userColumns = true;

/** Issues with paths relative to params.script. */
export function checkParams(filled, _host, { configDir } = {}) {
  return checkUserFile(filled, configDir);
}

/** The params the image gets (the file as seen inside the container) and the mount that makes it visible. */
export function toContainer(filled, { configDir }) {
  const { hostRoot, containerFile } = resolveUserFile(filled, configDir);
  const { root, ...rest } = filled;
  return { params: { ...rest, file: containerFile }, mounts: [toUserMount(hostRoot)] };
}

let userFunction;

export async function prepare(params) {
  userFunction = await loadUserExport(params);
}

export function runTask({ args }, task) {
  let returned;
  try {
    returned = userFunction(args, { task });
  } catch (error) {
    throw toTaskError(error);
  }
  return typeof returned?.then === 'function'
    ? returned.then(
        (value) => value,
        (error) => {
          throw toTaskError(error);
        },
      )
    : returned;
}

/** The numbers a call returned, kept on its task record; undefined for anything but a plain object of numbers. */
export function readTaskValues(returned) {
  return pickUserNumbers(returned);
}

/** Mean of each returned key over the calls that returned it: one number per run for runs.csv. */
export function measure({ records = [] }) {
  return averageUserNumbers(records.map((record) => record.values));
}

function toTaskError(error) {
  return new WorkloadError('ERR_TASK_FAILED', formatUserError(error), { cause: error });
}

// The capacity model of code we cannot see: the ideal. The cell with the least parallelism (threads that
// get a call, capped by the usable CPUs) gives the time of a call; every other cell is that in waves over
// its own threads and CPUs, as if each call were CPU on the thread that makes it. Below the line is
// what the host did not give; above it, what the code cannot use (waiting, locks, a shared pool).
const waveTime = ({ params, cpus, workers, cluster }) =>
  shareCpus(listThreadLoads({ tasks: params.tasks, workers, cluster }), { cpus }).last;

export const model = {
  calibration: () => ({
    kind: 'lowest',
    parallelism: ({ params, workers, cluster }) =>
      listThreadLoads({ tasks: params.tasks, workers, cluster }).filter((load) => load > 0).length,
  }),
  predict(cell, { base, medians }) {
    return medians.wall_ms === undefined ? {} : { wall_ms: (medians.wall_ms * waveTime(cell)) / waveTime(base) };
  },
  describe: ({ medians }) =>
    `ideal: the least parallel cell's ${medians.wall_ms?.toPrecision(3)} ms, in waves over each cell's threads and CPUs`,
};
