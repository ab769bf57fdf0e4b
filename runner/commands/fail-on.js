// `--fail-on refuted|inconclusive` on `run` and `claims`: the claims as a gate for CI, with the statuses `claims` has
// always used (commands/table.js EXIT_STATUSES): 1 a claim is refuted, 3 some are inconclusive and none refuted.
// `refuted` lets an inconclusive claim pass; `inconclusive` fails on both.
import { LabError } from '../errors.js';
import { suggestName } from '../../images/workload/lib/suggest.js';

export const FAIL_ON_VALUES = ['refuted', 'inconclusive'];

/** The option's value, checked: null when not given. */
export function parseFailOn(value, usage) {
  if (value === undefined) return null;
  if (FAIL_ON_VALUES.includes(value)) return value;
  const close = suggestName(value, FAIL_ON_VALUES);
  throw new LabError(
    'ERR_USAGE',
    `--fail-on takes refuted or inconclusive, found "${value}"${close ? ` (did you mean ${close}?)` : ''}`,
    { hint: usage },
  );
}

/**
 * The status the gate asks for, from the claims' own (report/verdicts.js claimsExitCode: 0 hold or none, 1 refuted,
 * 3 inconclusive and none refuted).
 */
export function gateClaims(claimsStatus, failOn) {
  if (claimsStatus === 1 && failOn) return 1;
  if (claimsStatus === 3 && failOn === 'inconclusive') return 3;
  return 0;
}

/** The worst of several folders' claims statuses: refuted before inconclusive before holds. */
export function worstClaimsStatus(statuses) {
  if (statuses.includes(1)) return 1;
  return statuses.includes(3) ? 3 : 0;
}

/** Each results folder's claims status as its reports are written (the 'reports' event of run()). */
export function collectClaimsStatuses(events) {
  const statuses = new Map();
  events.on('reports', ({ outDir, verdicts }) => statuses.set(outDir, verdicts?.exitCode ?? 0));
  return statuses;
}

/**
 * A finished run's gate: the worst claims status over its folders; a folder whose reports could not be written was
 * not judged, which a gate must not pass (exit 1).
 * @param {{ outDir: string }[]} experiments  the run's outcome.experiments
 * @returns {{ status: 0|1|3, words: string|null, unjudged: { outDir: string }[] }}
 */
export function gateRun(experiments, statuses, failOn) {
  const unjudged = experiments.filter(({ outDir }) => !statuses.has(outDir));
  const status = unjudged.length > 0 ? 1 : gateClaims(worstClaimsStatus([...statuses.values()]), failOn);
  const words =
    unjudged.length > 0
      ? null
      : ({ 1: 'a claim is refuted', 3: 'some claims are inconclusive, none refuted' }[status] ?? null);
  return { status, words, unjudged };
}
