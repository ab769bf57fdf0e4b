// buildImages(): build, or confirm up to date, the workload image of each Node major ahead of a matrix (a matrix
// does the same for the majors it needs). From an installed package too: the build context is its own
// Dockerfile and images/workload/, whose dependencies postinstall (or this, the first time) installs.
import { DEFAULT_NODE_MAJOR } from '../domain/axes.js';

/**
 * @param {{ majors?: number[], image?: string, onProgress?: (line: string) => void }} [options]
 *   image: the base image choice, auto | official | local | an image name (docker/images/base-image-choice.js)
 * @returns {Promise<{ major: number, tag: string, id: string, node_version: string, source: string, base: string }[]>}
 */
export async function buildImages({ majors = [DEFAULT_NODE_MAJOR], image = 'auto', onProgress = () => {} } = {}) {
  const { connectEngine } = await import('../docker/engines/connect.js');
  const { ensureImages } = await import('../docker/images/workload-image.js');
  const { docker } = await connectEngine();
  const built = await ensureImages(docker, { requests: majors.map((major) => ({ major, choice: image })), onProgress });
  return [...built].map(([key, { tag, id, nodeVersion, source, base }]) => ({
    major: Number(String(key).split(':')[0]),
    tag,
    id,
    node_version: nodeVersion,
    source,
    base,
  }));
}
