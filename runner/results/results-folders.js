// The results folders `run` writes under a results root: results/<experiment>-<UTC stamp>, one per experiment and
// start. The commands that read a folder take the newest when none is named, and plan's estimate reads the newest
// ones first.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

// output-files.js defaultOutputDir: <experiment>-YYYYMMDDTHHMMSSZ.
const STAMPED = /^(.+)-(\d{8}T\d{6}Z)$/;

/**
 * @param {string} root  e.g. ./results
 * @returns {{ dir: string, experiment: string, stamp: string }[]}  the folders with a runs.csv, newest first (the
 *   same second: by name); [] when the root does not exist
 */
export function listResultsFolders(root) {
  let names;
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  return names
    .map((name) => ({ name, match: STAMPED.exec(name) }))
    .filter(({ name, match }) => match && existsSync(join(root, name, 'runs.csv')))
    .sort((a, b) => b.match[2].localeCompare(a.match[2]) || a.name.localeCompare(b.name))
    .map(({ name, match }) => ({ dir: join(root, name), experiment: match[1], stamp: match[2] }));
}
