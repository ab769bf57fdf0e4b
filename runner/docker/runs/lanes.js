// A lane = one slot of one engine: it places a run on its slot (cpuset made absolute), runs it with
// the engine's executor, and stops waiting the moment the engine's watchdog gives up on it: the wait
// on a dead engine would otherwise never end. A run cut short that way is not a measurement: it
// throws the contract's backendLost (no row), and the dispatcher queues it again on another engine.
import { backendLost, isBackendLost } from '../../backend/contract.js';
import { placeLimits } from '../../plan/slots.js';
import { sampleHostCpu } from './sample-host.js';

/**
 * @param {{ name: string, executor: { execute(run, opts): Promise<object> }, watchdog: { signal: AbortSignal },
 *   slots: object[] }} engine
 * @returns {{ id: string, engine: string, slot: object, execute(run, opts): Promise<object> }[]}
 */
export function createLanes(engine) {
  return engine.slots.map((slot) => ({
    id: `${engine.name}#${slot.index}`,
    engine: engine.name,
    slot,
    execute: (run, options) => executeOnLane(engine, slot, run, options),
    // Only once the engine has an image with node (engine-set.js sets sampleImage after the images are ready).
    sampleHost: (options) => sampleHostCpu(engine.docker, engine.sampleImage, options),
  }));
}

async function executeOnLane(engine, slot, run, { signal } = {}) {
  const lostSignal = engine.watchdog.signal;
  if (lostSignal.aborted) throw engineLost(engine, run, lostSignal.reason);
  const placed = { ...run, limits: placeLimits(run.limits, slot, engine.slots.length) };
  const both = AbortSignal.any([lostSignal, ...(signal ? [signal] : [])]);
  const running = engine.executor.execute(placed, {
    signal: both,
    slotCpuIds: engine.slots.length > 1 ? slot.cpuIds : undefined,
  });
  let onLost;
  const lost = new Promise((resolve) => {
    onLost = () => resolve('lost');
    lostSignal.addEventListener('abort', onLost, { once: true });
  });
  try {
    const outcome = await Promise.race([running, lost]);
    if (outcome === 'lost' || (outcome.aborted && lostSignal.aborted)) {
      // Settles on its own once the engine answers or the socket closes; nothing waits for it.
      running.catch(() => {});
      throw engineLost(engine, run, lostSignal.reason);
    }
    return { ...outcome, engine: engine.name, slotCpuset: slot.cpuset };
  } catch (error) {
    if (isBackendLost(error) && !error.engine) throw engineLost(engine, run, error);
    throw error;
  } finally {
    lostSignal.removeEventListener('abort', onLost);
  }
}

function engineLost(engine, run, reason) {
  return backendLost(`engine ${engine.name} stopped answering during run ${run.runKey}: ${reason?.message ?? reason}`, {
    engine: engine.name,
    hint: 'rows of the finished runs are kept; start the engine again, then resume',
    cause: reason,
  });
}
