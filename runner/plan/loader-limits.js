// The http load generator's container limits, from params.http.loader and the server's (cell's) limits; and
// whether the two share CPUs, which the row records (loader_shared) and `plan` warns of (a budget shared against
// `auto`'s wish is not measured as asked: domain/shared-loader.js has the rule and its words).
//
// cpuset `auto` keeps the loader off the server's CPUs whenever the host allows:
//   - the cell pins the server (`cpuset` axis) and the host has CPUs outside that set: the loader is pinned to
//     up to ceil(loader.cpus) of them;
//   - the cell does not pin the server, and the host has more CPUs than its budget needs (ceil(cpus); without
//     a quota the budget is every CPU): the loader gets up to ceil(loader.cpus) of the spare CPUs (the last
//     ones), and the server is confined to the others. Its quota is unchanged; what it sees changes with its
//     cpuset (os.availableParallelism(), seen_cpuset), which is why the row says so;
//   - otherwise the two share: the loader is left unpinned, and loader_cpu_ms says what it took.
// `none` never pins (shared); a CPU list pins there (shared if it overlaps the server's CPUs).
// On a slot (--slots N > 1) hostCpuIds are the slot's CPUs and the loader never leaves them: a CPU list
// counts from the slot's first CPU, as a cell's cpuset does, and "unpinned" means the whole slot.
import { formatCpuIds, parseCpuList } from '../../images/workload/lib/cpuset.js';

// autocannon holds latencies and counters for a run in tens of MB; this leaves room without
// depending on the experiment's `memory`, which is the server's.
export const LOADER_MEMORY_BYTES = 512 * 2 ** 20;

/**
 * @param {object} input
 * @param {{ nanoCpus?: number, cpusetCpus?: string }} input.server  the cell's limits (on a slot, placed on it)
 * @param {{ cpus: number, cpuset: string }} input.loader  params.http.loader, defaults filled
 * @param {number[]} input.hostCpuIds  CPUs of the engine's host, or of the run's slot
 * @param {boolean} [input.withinSlot]  the run is confined to a slot of hostCpuIds
 * @param {boolean} [input.pinnedByCell]  the cell has a `cpuset` (default: the server has a cpuset other than the slot)
 * @returns {{ cpus: number, cpuset: string, nanoCpus: number, cpusetCpus: string|undefined, memoryBytes: number,
 *   shared: boolean, serverCpusetCpus?: string }}  cpus and cpuset as recorded in loader_cpus / loader_cpuset ('' when
 *   unpinned); shared as loader_shared; serverCpusetCpus: the cpuset the server is confined to, when the runner chose
 *   one
 */
export function planLoaderLimits({
  server,
  loader,
  hostCpuIds,
  withinSlot = false,
  pinnedByCell = Boolean(server.cpusetCpus) && !(withinSlot && server.cpusetCpus === formatCpuIds(hostCpuIds)),
}) {
  const placed = placeLoader({ server, loader, hostCpuIds, withinSlot, pinnedByCell });
  const cpusetIds = placed.loaderIds ?? (withinSlot ? hostCpuIds : undefined);
  // Docker refuses a quota above the CPUs the container may use.
  const cpus = Math.min(loader.cpus, cpusetIds?.length ?? hostCpuIds.length);
  const cpuset = cpusetIds ? formatCpuIds(cpusetIds) : '';
  return {
    cpus,
    cpuset,
    nanoCpus: Math.round(cpus * 1e9),
    cpusetCpus: cpuset || undefined,
    memoryBytes: LOADER_MEMORY_BYTES,
    shared: placed.shared,
    ...(placed.serverIds ? { serverCpusetCpus: formatCpuIds(placed.serverIds) } : {}),
  };
}

/** CPUs the server's budget needs to be spent in full: its quota rounded up, or every CPU without one. */
export function countBudgetCpus({ nanoCpus }, hostCpuCount) {
  return nanoCpus ? Math.min(hostCpuCount, Math.ceil(nanoCpus / 1e9 - 1e-9)) : hostCpuCount;
}

function placeLoader({ server, loader, hostCpuIds, withinSlot, pinnedByCell }) {
  const serverIds = pinnedByCell ? parseCpuList(server.cpusetCpus) : hostCpuIds;
  if (loader.cpuset === 'none') return { shared: true };
  if (loader.cpuset !== 'auto') {
    const ids = parseCpuList(loader.cpuset).map((id) => (withinSlot ? hostCpuIds[id] : id));
    return { loaderIds: ids, shared: ids.some((id) => serverIds.includes(id)) };
  }
  const wanted = Math.ceil(loader.cpus);
  if (pinnedByCell) {
    const free = hostCpuIds.filter((id) => !serverIds.includes(id));
    return free.length > 0 ? { loaderIds: free.slice(0, wanted), shared: false } : { shared: true };
  }
  const spare = hostCpuIds.length - countBudgetCpus(server, hostCpuIds.length);
  if (spare < 1) return { shared: true };
  const loaderIds = hostCpuIds.slice(-Math.min(wanted, spare));
  return { loaderIds, serverIds: hostCpuIds.filter((id) => !loaderIds.includes(id)), shared: false };
}
