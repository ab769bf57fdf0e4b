// A budget the host cannot give the server and its load generator apart. The runner keeps an http cell's load
// generator off the server's CPUs wherever the host allows (`loader.cpuset: auto`, the default: plan/loader-limits.js);
// where it cannot — a 1.5- or 2-CPU budget, or no quota, on a 2-CPU host — the two share, and the row says so
// (loader_shared). The loader's CPU time then competes with the server's inside the budget, so the numbers are not the
// budget's: the cell is not measured as asked (domain/delivery.js), and its answer says why in these words. Unless the
// file itself asked for the loader on the server's CPUs (`loader.cpuset: none`, or a CPU list the server runs on):
// then the numbers are what was asked. Decided from where the loader was placed (the row) and what the cell asked
// (its params in run.json), never from a measured value.
import { parseCpuList } from '../../images/workload/lib/cpuset.js';

/** `loader.cpuset` when a cell's params do not say: the default, `auto`. */
export const DEFAULT_LOADER_CPUSET = 'auto';

/**
 * Whether a run's load generator shared the server's CPUs although the runner wanted it on CPUs of its own.
 * @param {{ loader_shared?: boolean|null }} run  a typed runs.csv row (rows from before loader_shared never are)
 * @param {string} [loaderCpuset]  the cell's params.loader.cpuset, as the file asked it
 */
export function sharesLoaderUnasked(run, loaderCpuset = DEFAULT_LOADER_CPUSET) {
  return run.loader_shared === true && loaderCpuset === 'auto';
}

/**
 * The CPUs of the host (or the slot, under --slots) a run was given: its slot_cpuset, or, where that is empty, the
 * CPUs the server saw (seen_available_parallelism: a server whose loader shared under `auto` was never confined by
 * the runner, and a cpuset of its own that left no CPU spare is every CPU of the host or slot); null when neither.
 */
export function countRunHostCpus(run) {
  const cpuset = typeof run.slot_cpuset === 'string' ? run.slot_cpuset : '';
  if (cpuset !== '') return parseCpuList(cpuset).length;
  const seen = run.seen_available_parallelism;
  return Number.isInteger(seen) && seen > 0 ? seen : null;
}

/**
 * The words for such a budget: "1.5 CPUs cannot be measured cleanly on this 2-CPU host: the load generator needs a
 * CPU of its own". `plan` says it before the run, and the answer of that budget after it.
 * @param {string} budget  describeBudgetCpus's words: "1.5 CPUs", "cpuset 0-1", "no cpus quota (every CPU)"
 * @param {number|null} hostCpuCount  null when the rows do not say
 */
export function describeSharedBudget(budget, hostCpuCount) {
  const host = Number.isFinite(hostCpuCount) ? `this ${hostCpuCount}-CPU host` : 'this host';
  return `${budget} cannot be measured cleanly on ${host}: the load generator needs a CPU of its own`;
}

/** A cell's CPU budget in words: "1.5 CPUs", "cpuset 0-1", "no cpus quota (every CPU)". */
export function describeBudgetCpus(values) {
  if (values.cpuset !== undefined && values.cpuset !== null && values.cpuset !== '') return `cpuset ${values.cpuset}`;
  const cpus = values.cpus;
  if (cpus === undefined || cpus === null || cpus === '') return 'no cpus quota (every CPU)';
  return `${cpus} CPU${Number(cpus) === 1 ? '' : 's'}`;
}
