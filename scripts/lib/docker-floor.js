// The floor every per-run overhead is read against: a bare `docker run --rm <image> node -e 0` through the docker CLI.
import { execa } from 'execa';
import { LABELS } from '../../runner/docker/runs/labels.js';
import { OWNER } from '../../runner/docker/runs/owner.js';

/** Milliseconds for one bare `docker run --rm`, from the command to its exit. */
export async function timeFloor(tag) {
  const began = performance.now();
  // The image carries the project label: without this runner's owner label a matrix starting meanwhile would take
  // the bare container for a killed runner's orphan and remove it.
  await execa('docker', [
    'run',
    '--rm',
    '--label',
    `${LABELS.owner}=${OWNER}`,
    '--network',
    'none',
    '--entrypoint',
    'node',
    tag,
    '-e',
    '0',
  ]);
  return performance.now() - began;
}
