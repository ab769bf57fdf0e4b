// A user's error as the person should read it in runs.csv's `error` column: their message and the
// frames of their own code, with the container's mount point taken off the paths, on one line
// (run.js prints one line; the runner keeps the stderr tail).

const USER_MOUNT = '/lab/user/';
// Frames of the lab's code, of Node's, and of builtins such as Array.map that called the user's.
const OWN_FRAMES = /\((?:file:\/\/)?\/app\/|^\s*at (?:file:\/\/)?\/app\/|\(node:|at node:|\(native\)|\(<anonymous>\)/;

export function formatUserError(error) {
  if (!(error instanceof Error))
    return `threw ${typeof error === 'string' ? JSON.stringify(error) : String(error)} (not an Error, so no stack)`;
  const [head, ...frames] = (error.stack ?? `${error.name}: ${error.message}`).split('\n');
  const kept = frames
    .filter((line) => line.trim().startsWith('at ') && !OWN_FRAMES.test(line))
    .map((line) => line.trim());
  return [head, ...kept].join(' | ').replaceAll(`file://${USER_MOUNT}`, '').replaceAll(USER_MOUNT, '');
}
