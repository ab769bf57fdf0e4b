// Everything a real run needs from Docker before the first container: the engine (started if need be),
// orphans of a killed runner removed, one workload image per Node major, the user's code checked (the
// preflight, which also fixes plan.userColumns), the executor. Reports what it did through `events`
// ('orphans', 'image-progress', 'preflight'); prints nothing.
import { EventEmitter } from 'node:events';
import { removeOrphanContainers, removeOwnContainers } from './cleanup.js';
import { connectEngine } from './engine.js';
import { createDockerExecutor } from './executor.js';
import { ensureImages } from './images.js';
import { preflightUserCode } from './preflight.js';

/**
 * @param {{ nodeMajors: number[], events?: EventEmitter, plans?: object[], config?: object }} options
 *   plans, config: what the preflight checks, and where its errors point
 * @returns {Promise<{ engine: object, images: Map<number, object>, executor: object, removeOwnContainers: () => Promise<unknown> }>}
 */
export async function openDockerSession({ nodeMajors, events = new EventEmitter(), plans = [], config = {} }) {
  const engine = await connectEngine({ setup: true });
  events.emit('orphans', await removeOrphanContainers(engine.docker));
  const images = await ensureImages(engine.docker, { nodeMajors, onProgress: (line) => events.emit('image-progress', line) });
  await preflightUserCode(engine.docker, { plans, images, config, onProgress: (line) => events.emit('preflight', line) });
  return {
    engine,
    images,
    executor: createDockerExecutor(engine.docker, images),
    removeOwnContainers: () => removeOwnContainers(engine.docker),
  };
}
