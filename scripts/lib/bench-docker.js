// What the run-cost benchmarks (bench-overhead.js, bench-kube.js) share: the engine with the default workload image
// ready, and the floor every per-run overhead is read against, a bare `docker run --rm <image> node -e 0`.
import { execa } from 'execa';
import { connectEngine } from '../../runner/docker/engines/connect.js';
import { DEFAULT_NODE_MAJOR } from '../../runner/domain/axes.js';
import { ensureImages } from '../../runner/docker/images/workload-image.js';
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

/** The local engine (set up if need be) and the default Node major's workload image, progress on stderr. */
export async function readyBenchImage() {
  const engine = await connectEngine({ setup: true });
  const images = await ensureImages(engine.docker, {
    nodeMajors: [DEFAULT_NODE_MAJOR],
    onProgress: (line) => console.error(line),
  });
  return { engine, images, image: images.get(DEFAULT_NODE_MAJOR).tag };
}
