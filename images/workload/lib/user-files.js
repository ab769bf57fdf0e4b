// The user's own code on the host: where a `file` (and its `root`, the folder mounted into the
// container) is, and whether it is there. Paths in experiments.yml are relative to the folder of
// that file, wherever it lives, so a config works from any working directory.

import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

/** Where the user's folder appears inside every container: read-only, never the image's /app. */
export const USER_MOUNT = '/lab/user';

/**
 * @param {{ file: string, root?: string }} given  as written in experiments.yml
 * @param {string} configDir  folder of experiments.yml
 * @returns {{ hostFile: string, hostRoot: string, containerFile: string }}
 */
export function resolveUserFile({ file, root }, configDir) {
  const hostFile = path.resolve(configDir, file);
  const hostRoot = root === undefined || root === '' ? path.dirname(hostFile) : path.resolve(configDir, root);
  const inside = path.relative(hostRoot, hostFile);
  return { hostFile, hostRoot, containerFile: path.posix.join(USER_MOUNT, ...inside.split(path.sep)) };
}

/** Issues (paths relative to the params group) for a file that is missing, or outside its root. */
export function checkUserFile(given, configDir, { fileKey = 'file', at = [] } = {}) {
  // A file or root of the wrong type is the schema's to report.
  if (typeof given?.file !== 'string' || given.file === '' || !configDir) return [];
  if (given.root !== undefined && typeof given.root !== 'string') return [];
  const { hostFile, hostRoot } = resolveUserFile(given, configDir);
  if (given.root !== undefined && !isDirectory(hostRoot)) {
    return [
      {
        path: [...at, 'root'],
        message: `expected a folder, found nothing at ${hostRoot}`,
        hint:
          'root is relative to the folder of the experiments file, e.g. `root: .` for that folder; ' +
          "leave it out to mount the file's own folder",
      },
    ];
  }
  if (!existsSync(hostFile) || isDirectory(hostFile)) {
    return [
      {
        path: [...at, fileKey],
        message: `expected a JavaScript file, found ${existsSync(hostFile) ? 'a folder' : 'nothing'} at ${hostFile}`,
        hint: `paths are relative to the folder of the experiments file (${configDir}), e.g. \`${fileKey}: bench/work.js\``,
      },
    ];
  }
  const inside = path.relative(hostRoot, hostFile);
  if (inside.startsWith('..') || path.isAbsolute(inside)) {
    return [
      {
        path: [...at, fileKey],
        message: `expected a file inside root (${hostRoot}), found ${hostFile}`,
        hint: 'only root is mounted into the container: move the file under it, or widen root',
      },
    ];
  }
  return [];
}

/** A `root` that must be a folder (command's optional mount). */
export function checkUserRoot(root, configDir) {
  if (typeof root !== 'string' || !configDir || isDirectory(path.resolve(configDir, root))) return [];
  return [
    {
      path: ['root'],
      message: `expected a folder, found nothing at ${path.resolve(configDir, root)}`,
      hint: 'root is relative to the folder of the experiments file, e.g. `root: .` for that folder',
    },
  ];
}

/** The read-only bind of the user's folder. */
export function toUserMount(hostRoot) {
  return { source: hostRoot, target: USER_MOUNT, readOnly: true };
}

function isDirectory(file) {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}
