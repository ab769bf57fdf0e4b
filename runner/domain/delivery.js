// Whether a cell was measured as asked: the CPUs its runs got against the CPUs its budget allows. A budget of 2 CPUs
// while the rest of the host kept one busy gave its runs about 1: what they measured is a 1-CPU budget, and no answer
// may call it a 2-CPU one. The one home of which runs an answer counts — the summary, the advice, the claims and
// steps, `compare` and the race all sort a cell's runs here. Like the disturbed-run rule it rests on
// (interference.js), it reads only the host's counters, the run's status and where its load generator was placed,
// never a measured value. An http budget the host cannot give the server and its load generator apart is not
// delivered either, for a reason of its own (shared-loader.js).
import { DEFAULT_DISTURBED_ABOVE, isMeasured } from './interference.js';
import { mean } from 'simple-statistics';
import { median } from '../stats/statistics.js';
import { usableCpus } from './usable-cpus.js';
import { countRunHostCpus, sharesLoaderUnasked } from './shared-loader.js';

/**
 * The share of its allowed CPU time a run got: what the rest of the host left it, 1 − interference_pct / 100 (at
 * least 0). A 2-CPU run while another program kept one CPU busy reads interference_pct 50: it got half.
 * @param {object} run  a typed runs.csv row
 * @returns {number|null}  null without a reading (an old folder, or a window too short for /proc/stat's ticks)
 */
export function measureRunShare(run) {
  const pct = run.interference_pct;
  return typeof pct === 'number' && Number.isFinite(pct) ? 1 - Math.min(100, Math.max(0, pct)) / 100 : null;
}

/** The CPUs a run was allowed, as the process inside saw them: min(quota, cpuset size, the CPUs it could see). */
export function readRunCpus(run) {
  const cpus = Number(run.seen_cpu_quota);
  const cpuset = typeof run.seen_cpuset === 'string' && run.seen_cpuset !== '' ? run.seen_cpuset : undefined;
  return usableCpus(
    { cpus: Number.isFinite(cpus) && cpus > 0 ? cpus : undefined, cpuset },
    run.seen_available_parallelism,
  );
}

/**
 * A cell's runs as every answer counts them, and whether the host delivered its budget.
 *
 * - `runs`: the runs that count (interference.js isMeasured: ok, not a warm-up, not disturbed unless keepDisturbed);
 * - `disturbedRuns`: the ok runs left out as disturbed (not those whose open-loop generator fell behind);
 * - `delivery`: the share of the cell's CPUs its runs got, averaged over the runs that count (over the disturbed ones
 *   when none counts: what the host gave the runs it made). The cell was **delivered** when some run counts and that
 *   share is at least 1 − disturbed_above / 100: the same threshold the experiment fixed for one run, so a cell with a
 *   clean run always is, and one whose every run was disturbed never is. A cell with no reading, or no ok run, is not
 *   said to be undelivered: there is nothing the host failed to give. With keepDisturbed (--keep-disturbed, a person's
 *   choice to count every ok run whatever the host gave) every cell counts as delivered, and `short` says whether the
 *   host gave its runs less: the answers say so in words instead. Whatever the share, a cell whose load generator
 *   shared the server's CPUs although the runner wanted it apart (shared-loader.js: loader_shared with
 *   `loader.cpuset: auto`) in a run it would count is not delivered, for the reason 'loader': no quieter host or
 *   --keep-disturbed changes that this host cannot give the budget apart from its loader.
 * @param {object[]} cellRuns  the cell's typed rows
 * @param {{ keepDisturbed?: boolean, disturbedAbove?: number|null, loaderCpuset?: string }} [options]
 *   loaderCpuset: the cell's params.loader.cpuset (http cells; default `auto`)
 * @returns {{ runs: object[], disturbedRuns: object[], delivery: Delivery }}
 *
 * @typedef {object} Delivery
 * @property {boolean} delivered  whether its runs count in the answers
 * @property {null|'host'|'loader'} reason  why not: the rest of the host left its runs less than the threshold share
 *   ('host'), or its load generator shared the server's CPUs unasked ('loader', said first); null when delivered
 * @property {boolean} short  whether the host gave its runs less than the threshold share (or none counts)
 * @property {number|null} share  the mean share of the allowed CPU time the runs got (0–1)
 * @property {number|null} cpus  the CPUs the cell was allowed (the runs' median)
 * @property {number|null} got  the CPUs the runs got on average (share × allowed, run by run)
 * @property {number} runs  the runs the share is averaged over
 * @property {number|null} hostCpus  the CPUs of the host (or slot) of the runs whose loader shared: what the words of a
 *   'loader' cell name ("on this 2-CPU host"); null otherwise, or when the rows do not say
 */
export function sortCellRuns(
  cellRuns,
  { keepDisturbed = false, disturbedAbove = DEFAULT_DISTURBED_ABOVE, loaderCpuset } = {},
) {
  const runs = cellRuns.filter((run) => isMeasured(run, { keepDisturbed }));
  // Not a run whose open-loop generator fell behind: that one counts in no fallback (interference.js isMeasured).
  const disturbedRuns = cellRuns.filter(
    (run) => run.status === 'ok' && run.warmup !== true && run.loader_behind !== true && !runs.includes(run),
  );
  const basis = runs.length > 0 ? runs : disturbedRuns;
  const read = basis
    .map((run) => ({ share: measureRunShare(run), cpus: readRunCpus(run) }))
    .filter(({ share }) => share !== null);
  const share = read.length ? mean(read.map((each) => each.share)) : null;
  const allowed = read.map((each) => each.cpus).filter((cpus) => cpus !== null);
  const got = allowed.length === read.length && read.length ? mean(read.map((each) => each.share * each.cpus)) : null;
  const threshold = 1 - (disturbedAbove ?? DEFAULT_DISTURBED_ABOVE) / 100;
  // Short: the host gave the runs less than the threshold share (or none of them counts but some were disturbed).
  const short = share === null ? runs.length === 0 && disturbedRuns.length > 0 : runs.length === 0 || share < threshold;
  const cpus = allowed.length ? median(allowed) : null;
  const crowded = basis.filter((run) => sharesLoaderUnasked(run, loaderCpuset));
  // --keep-disturbed counts every ok run whatever the host gave (a choice the answers then say): delivered, unless
  // the loader shared the server's CPUs, which is no disturbance but the host's size.
  const reason = crowded.length > 0 ? 'loader' : short && !keepDisturbed ? 'host' : null;
  return {
    runs,
    disturbedRuns,
    delivery: {
      delivered: reason === null,
      reason,
      short,
      share,
      cpus,
      got,
      runs: read.length,
      hostCpus: crowded.length > 0 ? median(crowded.map(countRunHostCpus)) : null,
    },
  };
}

/** The runs an answer counts of a summary cell: none when the host did not deliver its budget. */
export function countedRuns(cell) {
  return cell.delivery?.delivered === false ? [] : cell.runs;
}

/** Summary cells as the answers read them: an undelivered cell's runs taken out (countedRuns). */
export function keepDelivered(cells) {
  return cells.map((cell) => (cell.delivery?.delivered === false ? { ...cell, runs: [] } : cell));
}
