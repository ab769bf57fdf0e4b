// Where `init` looks for the deployment files of a service when none is named (--from): the project of the module,
// that is the nearest folder at or above it with a package.json or .git, up to the folder of the experiments file
// (findProjectRoot), and
// every folder under it down to MAX_DEPTH, but hidden folders, node_modules, results (the lab's), and the folders of
// tests and examples (manifests there are not the service's, and may be broken on purpose) unless the module is in
// one. A .yaml/.yml file is taken for a manifest when a line at its left margin starts a Kubernetes object (`kind:`,
// `apiVersion:`) or a Compose file (`services:`); other YAML (CI files, app settings, experiments.yml) is not read.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const MAX_DEPTH = 4;
const SKIPPED_FOLDERS = ['node_modules', 'results', 'test', 'tests', '__tests__', 'fixtures', 'testdata', 'examples'];
const MARKER = /^(kind|apiVersion|services):/m;
// A manifest is a few kilobytes; a bigger YAML file is data, not a deployment.
const MOST_BYTES = 1024 * 1024;

/**
 * The nearest folder at or above `start` with a package.json (or a .git), looking no higher than `ceiling` (the
 * experiments file's folder, when the module is in it) and never at the home folder or the filesystem's root (a
 * stray ~/package.json would have init read every project under it); none found: `ceiling`, else `start`.
 */
export function findProjectRoot(start, { ceiling, home = os.homedir() } = {}) {
  const within = ceiling && isInside(start, ceiling) ? ceiling : null;
  for (let dir = start; dir !== home && dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json')) || existsSync(path.join(dir, '.git'))) return dir;
    if (dir === within) break;
  }
  return within ?? start;
}

function isInside(dir, folder) {
  const relative = path.relative(folder, dir);
  return !relative.startsWith('..') && !path.isAbsolute(relative);
}

/**
 * The manifests under `root`, absolute paths, in a stable order (by path).
 * @param {string} root
 * @param {{ along?: string }} [options]  along: the module's folder; the folders on the way to it are read even
 *   where their name is skipped
 */
export function findManifestFiles(root, { along = root } = {}) {
  const found = [];
  const onTheWay = (dir) => isInside(along, dir);
  // narrow: a skipped folder entered on the way to the module; in it only the way on, until the module's folder.
  const walk = (dir, depth, narrow = false) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        const skipped = narrow || entry.name.startsWith('.') || SKIPPED_FOLDERS.includes(entry.name);
        if ((depth < MAX_DEPTH && !skipped) || onTheWay(full)) walk(full, depth + 1, skipped && full !== along);
      } else if (entry.isFile() && /\.ya?ml$/.test(entry.name) && looksLikeManifest(full)) found.push(full);
    }
  };
  walk(root, 0);
  return found;
}

function looksLikeManifest(file) {
  try {
    return statSync(file).size <= MOST_BYTES && MARKER.test(readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
}
