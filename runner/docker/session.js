// Everything a real run needs from Docker before the first container: the engines (the local one started
// if need be), each checked and described, the images on every one (and image choice: base-images.js),
// orphans of a killed runner removed, an executor and a watchdog per engine, a lane per slot
// (engine-set.js); then the user's code checked on the first engine (the preflight, which also fixes
// plan.userColumns). Reports what it did through `events` ('orphans', 'image-progress', 'preflight');
// prints nothing.
import { EventEmitter } from 'node:events';
import { chooseEngineNames, openEngines, removeOwnContainersOn } from './engine-set.js';
import { preflightUserCode } from './runs/preflight-user-code.js';

export { removeOwnContainersOn };

/**
 * @param {object} options
 * @param {object[]} options.plans
 * @param {object} options.config
 * @param {string[]} [options.engineNames]  --engine (else the config's `engines:`, an `engine` axis, or the default
 *   engine)
 * @param {number} [options.slots]          --slots
 * @param {boolean} [options.allowMixed]    --allow-mixed-engines
 * @param {EventEmitter} [options.events]
 * @param {object[]} [options.connected]   filled with each engine as it is reached (see removeOwnContainersOn)
 * @returns {Promise<{ engine: object, engines: object[], images: Map<number, object>, lanes: object[],
 *   removeOwnContainers: () => Promise<unknown>, close: () => void }>}  engine: the first, for run.json's `docker`
 */
export async function openDockerSession({
  plans,
  config,
  engineNames = [],
  slots = 1,
  allowMixed = false,
  events = new EventEmitter(),
  connected = [],
}) {
  const names = chooseEngineNames({ flags: engineNames, config, plans });
  const set = await openEngines({ names, slots, allowMixed, plans, config, events, connected });
  const [first] = set.engines;
  await preflightUserCode(first.docker, {
    plans,
    images: set.images,
    config,
    onProgress: (line) => events.emit('preflight', line),
  });
  return {
    engine: { host: first.endpoint.host, version: first.version },
    engines: set.describe(),
    images: set.images,
    lanes: set.lanes,
    removeOwnContainers: set.removeOwnContainers,
    close: set.close,
  };
}
