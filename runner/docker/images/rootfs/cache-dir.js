// Where slow-to-make artefacts (the debootstrap tarball) live between runs and between projects.
import os from 'node:os';
import path from 'node:path';

export function getCacheDir(env = process.env) {
  const root = env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(root, 'node-threads-lab');
}
