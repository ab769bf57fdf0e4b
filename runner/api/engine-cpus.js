// How many CPUs `init` may write into a matrix: the engine's own count when it answers (Docker Desktop's VM or a
// remote engine may have fewer or more than this machine), else this machine's. Says which, so the file can too.
import os from 'node:os';

/** @returns {Promise<{ count: number, source: string }>} */
export async function countEngineCpus() {
  try {
    // Loaded only here: init is the one command besides a run that may ask an engine.
    const { connectEngine } = await import('../docker/engines/connect.js');
    const { docker, host } = await connectEngine();
    const { NCPU } = await docker.info();
    if (Number.isInteger(NCPU) && NCPU > 0) return { count: NCPU, source: `docker info of the engine at ${host}` };
    return fromThisMachine(`the engine at ${host} gave no CPU count`);
  } catch (error) {
    return fromThisMachine(`no engine answered: ${error.message.split('\n')[0]}`);
  }
}

function fromThisMachine(why) {
  return { count: os.availableParallelism(), source: `os.availableParallelism() of this machine (${why})` };
}
