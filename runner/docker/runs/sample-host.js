// How busy the engine's host is right now, while nothing of ours runs on it: a tiny container reads /proc/stat (not
// namespaced: it counts every process of the host) at both ends of a window and prints the CPU time used in it. The
// runner asks this when runs keep being disturbed, to wait for a quiet moment (run/busy-gate.js); it runs on the
// engine, so it says the same of a remote engine as of the local one.
import { LABELS, runContainer } from './run-container.js';

/** The role label of a host sample container: not a run. */
export const SAMPLE_ROLE = 'host-sample';

// user + nice + system + steal over the window, as images/workload/probe/host-cpu.js counts a run's interference.
const SAMPLE_SCRIPT = [
  "const fs = require('fs');",
  "const read = () => { const [cpu, ...rest] = fs.readFileSync('/proc/stat', 'utf8').split('\\n');",
  '  const [user, nice, system, , , , , steal = 0] = cpu.trim().split(/\\s+/).slice(1).map(Number);',
  '  return { busy: user + nice + system + steal, cpus: rest.filter((l) => /^cpu\\d+\\s/.test(l)).length, at: Date.now() }; };',
  'const first = read();',
  'setTimeout(() => { const last = read();',
  '  console.log(JSON.stringify({ cpus: last.cpus, cpuMs: (last.busy - first.busy) * 10, windowMs: last.at - first.at }));',
  '}, Number(process.argv[1]));',
].join('\n');

/**
 * @param {import('dockerode')} docker
 * @param {string} image  any image with node (the workload image)
 * @param {{ windowMs?: number, signal?: AbortSignal }} [options]
 * @returns {Promise<{ cpus: number, cpuMs: number, windowMs: number }|null>}  null when the sample failed (a person
 *   waits no longer for a sampler that cannot answer)
 */
export async function sampleHostCpu(docker, image, { windowMs = 2000, signal } = {}) {
  const raw = await runContainer(
    docker,
    {
      image,
      entrypoint: ['node', '-e', SAMPLE_SCRIPT, String(windowMs)],
      env: {},
      limits: { memoryBytes: 64 * 2 ** 20, nanoCpus: 0.1e9 },
      timeoutMs: windowMs + 30_000,
      labels: { [LABELS.role]: SAMPLE_ROLE },
    },
    { signal },
  );
  try {
    const sample = JSON.parse(raw.stdout);
    return [sample.cpus, sample.cpuMs, sample.windowMs].every(Number.isFinite) ? sample : null;
  } catch {
    return null;
  }
}
