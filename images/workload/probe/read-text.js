import { readFileSync } from 'node:fs';

/** Probes never fail a run: a file that is missing or unreadable (no /proc, no cgroup) reads as null. */
export function readTextOrNull(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
