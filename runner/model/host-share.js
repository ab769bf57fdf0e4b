// What the rest of the host took from a cell's CPUs while its runs were measured: the other programs (runs.csv
// interference_pct: what the host's /proc/stat counted beyond the run's own cgroup and its load generator, over the
// CPUs the run could not have used anyway, as a share of what it was allowed) and, where the load generator shares
// the server's CPUs and its CPU time is recorded (loader_cpu_ms), the load generator. Read from the host's
// counters and the loader's cgroup, never from the metric a model predicts, so a model built on it still
// predicts: it says what the CPUs the host left could do, and a cell that did less is short of it.
//
// Why the model needs it: a cell allowed every CPU of a 2-CPU host shares all of them with whatever else runs. A
// pbkdf2 matrix on a busy host ran its cpus: 2 cells at 0.7 CPU-s a second while the others took 1.3 — the same
// CPU time per call as on a quiet host, so the calibration was right and the CPUs were not there (docs/report.md,
// the capacity model). Runs above `disturbed_above` are left out, but below it up to that share of the CPUs may be
// gone.
import { parseCpuList } from '../../images/workload/lib/cpuset.js';
import { median } from '../stats/statistics.js';

/**
 * The median over the cell's measured runs of the CPU-s per second the others took, as a rate on the whole host:
 * the least that explains the share its runs lost (a run that lost nothing says 0: the others stayed on CPUs it
 * could not use), plus a sharing load generator's. 0 when no run says (folders from before interference_pct).
 * @param {Record<string, unknown>} values  the cell's axis values (its cpuset decides whether the loader shares it)
 * @param {object[]} runs  the cell's measured runs (runs.csv rows, typed)
 * @param {{ allowedCpus: number|null, hostCpus: number|null }} limits  what the cell was allowed, the host's CPUs
 * @returns {number}
 */
export function measureTakenCpus(values, runs = [], { allowedCpus, hostCpus }) {
  if (!(allowedCpus > 0) || !(hostCpus > 0)) return 0;
  const rates = runs.map((run) => takenRate(values, run, allowedCpus, hostCpus)).filter(Number.isFinite);
  return rates.length ? median(rates) : 0;
}

function takenRate(values, run, allowed, host) {
  const share = run.interference_pct;
  // loader_shared says it where the row has it (the runner may keep a server without a cpuset off the loader's CPUs,
  // plan/loader-limits.js); older rows are judged from the cpusets.
  const shared =
    typeof run.loader_shared === 'boolean' ? run.loader_shared : sharesCpus(values.cpuset, run.loader_cpuset);
  const loader =
    Number.isFinite(run.loader_cpu_ms) && run.wall_ms > 0 && shared ? run.loader_cpu_ms / run.wall_ms : null;
  if (!Number.isFinite(share) && loader === null) return null;
  // The contended part is what the others used beyond the host's CPUs the run was not allowed.
  const others = share > 0 ? (allowed * share) / 100 + (host - allowed) : 0;
  return others + (loader ?? 0);
}

/** Whether a load generator pinned to `loaderCpuset` (or not pinned: '') can run on the server's CPUs. */
export function sharesCpus(serverCpuset, loaderCpuset) {
  const pinned = (list) => list !== undefined && list !== null && String(list) !== '';
  if (!pinned(serverCpuset) || !pinned(loaderCpuset)) return true;
  const server = new Set(parseCpuList(String(serverCpuset)));
  return parseCpuList(String(loaderCpuset)).some((cpu) => server.has(cpu));
}
