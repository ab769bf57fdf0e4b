// The http load generator's container limits, from params.http.loader and the server's (cell's) limits.
//
// cpuset `auto`: when the cell pins the server (`cpuset` axis) and the host has CPUs outside that set,
// the loader is pinned to up to ceil(loader.cpus) of them, so the two never share a core. When the cell
// does not pin the server, the server may run on every CPU and no set is disjoint from it: the loader
// is left unpinned rather than the server pinned behind the cell's back (that would change what the
// server sees, e.g. os.availableParallelism()). `none` never pins; a CPU list pins there.
// On a slot (--slots N > 1) hostCpuIds are the slot's CPUs and the loader never leaves them: a CPU list
// counts from the slot's first CPU, as a cell's cpuset does, and "unpinned" means the whole slot.
import { formatCpuIds, parseCpuList } from '../../images/workload/lib/cpuset.js';

// autocannon holds latencies and counters for a run in tens of MB; this leaves room without
// depending on the experiment's `memory`, which is the server's.
export const LOADER_MEMORY_BYTES = 512 * 2 ** 20;

/**
 * @param {object} input
 * @param {{ nanoCpus?: number, cpusetCpus?: string }} input.server  the cell's limits
 * @param {{ cpus: number, cpuset: string }} input.loader  params.http.loader, defaults filled
 * @param {number[]} input.hostCpuIds  CPUs of the engine's host, or of the run's slot
 * @param {boolean} [input.withinSlot]  the run is confined to a slot of hostCpuIds
 * @returns {{ cpus: number, cpuset: string, nanoCpus: number, cpusetCpus: string|undefined, memoryBytes: number }}
 *   cpus and cpuset as recorded in loader_cpus / loader_cpuset ('' when unpinned)
 */
export function planLoaderLimits({ server, loader, hostCpuIds, withinSlot = false }) {
  const chosen = chooseLoaderCpus({ server, loader, hostCpuIds, withinSlot });
  const cpusetIds = chosen ?? (withinSlot ? hostCpuIds : undefined);
  // Docker refuses a quota above the CPUs the container may use.
  const cpus = Math.min(loader.cpus, cpusetIds?.length ?? hostCpuIds.length);
  const cpuset = cpusetIds ? formatCpuIds(cpusetIds) : '';
  return {
    cpus,
    cpuset,
    nanoCpus: Math.round(cpus * 1e9),
    cpusetCpus: cpuset || undefined,
    memoryBytes: LOADER_MEMORY_BYTES,
  };
}

function chooseLoaderCpus({ server, loader, hostCpuIds, withinSlot }) {
  if (loader.cpuset === 'none') return undefined;
  if (loader.cpuset !== 'auto')
    return withinSlot ? parseCpuList(loader.cpuset).map((id) => hostCpuIds[id]) : parseCpuList(loader.cpuset);
  if (!server.cpusetCpus) return undefined;
  const taken = new Set(parseCpuList(server.cpusetCpus));
  const free = hostCpuIds.filter((id) => !taken.has(id));
  return free.length > 0 ? free.slice(0, Math.ceil(loader.cpus)) : undefined;
}
