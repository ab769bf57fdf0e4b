// script: the user's own function. One call is one task; tasks are dealt over cluster processes and
// worker threads exactly like a built-in workload's, and each thread imports the module itself.
// The user's folder is bind-mounted read-only; the file path the image gets is the one inside it.

import { checkUserFile, resolveUserFile, toUserMount } from '../user-files.js';

const params = {
  file: {
    type: 'string', minLength: 1, examples: ['bench/resize.js'],
    title: 'Module file', description: 'The ES module or CommonJS file that exports the function, relative to the folder of the experiments file.',
  },
  export: {
    type: 'string', minLength: 1, default: 'default', examples: ['default', 'hashPassword'],
    title: 'Export name', description: 'Which export is the function: `default`, or a named export. It may be sync or async; one call is one task.',
  },
  tasks: {
    type: 'integer', minimum: 1, default: 1, examples: [1, 16],
    title: 'Calls per run', description: 'How many calls each run starts at once, dealt over cluster processes and worker threads.',
  },
  args: {
    type: 'object', default: {}, examples: [{ width: 800 }],
    title: 'Arguments', description: 'Passed to every call as its first argument (JSON values); the second is `{ task }`, the call\'s index.',
  },
  root: {
    type: 'string', minLength: 1, examples: ['.', 'bench'],
    title: 'Folder to mount', description: 'The folder mounted read-only into the container (its node_modules is used); default: the file\'s own folder. Relative to the experiments file.',
  },
};

export const script = {
  description:
    'Your own function: `file` exports it (sync or async), `args` is its first argument, one call is one task. ' +
    'A returned object of numbers becomes `user_<key>` columns (the mean over the run\'s calls).',
  params,
  required: ['file'],
  userCode: { kind: 'function', at: [] },
  checkParams,
  toContainer,
};

/** Issues with paths relative to params.script. */
function checkParams(filled, _host, { configDir } = {}) {
  return checkUserFile(filled, configDir);
}

/** The params the image gets (the file as seen inside the container) and the mount that makes it visible. */
function toContainer(filled, { configDir }) {
  const { hostRoot, containerFile } = resolveUserFile(filled, configDir);
  const { root, ...rest } = filled;
  return { params: { ...rest, file: containerFile }, mounts: [toUserMount(hostRoot)] };
}
