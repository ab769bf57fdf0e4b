// Everything a real run needs from Docker before the first container: the engine (started if need be),
// orphans of a killed runner removed, one workload image per Node major (and image choice: base-images.js),
// the user's code checked (the preflight, which also fixes plan.userColumns), the executor. The orphan
// sweep and the image check go at once. Reports what it did through `events` ('orphans',
// 'image-progress', 'preflight'); prints nothing.
import { EventEmitter } from 'node:events';
import { removeOrphanContainers, removeOwnContainers } from './cleanup.js';
import { connectEngine } from './engine.js';
import { createDockerExecutor } from './executor.js';
import { ensureImages } from './images.js';
import { preflightUserCode } from './preflight.js';

/**
 * @param {{ requests?: { major: number, choice: string }[], nodeMajors?: number[], events?: EventEmitter, plans?: object[], config?: object }} options
 *   requests: each cell's Node major and image choice; nodeMajors: majors with the default choice;
 *   plans, config: what the preflight checks, and where its errors point
 * @returns {Promise<{ engine: object, images: Map<number|string, object>, executor: object, removeOwnContainers: () => Promise<unknown> }>}
 */
export async function openDockerSession({ requests, nodeMajors, events = new EventEmitter(), plans = [], config = {} }) {
  const engine = await connectEngine({ setup: true });
  const [orphans, images] = await Promise.all([
    removeOrphanContainers(engine.docker),
    ensureImages(engine.docker, { requests, nodeMajors, onProgress: (line) => events.emit('image-progress', line) }),
  ]);
  events.emit('orphans', orphans);
  await preflightUserCode(engine.docker, { plans, images, config, onProgress: (line) => events.emit('preflight', line) });
  return {
    engine,
    images,
    executor: createDockerExecutor(engine.docker, images),
    removeOwnContainers: () => removeOwnContainers(engine.docker),
  };
}
