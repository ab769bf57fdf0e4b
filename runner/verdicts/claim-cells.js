// Whether a folder has the cells a claim names. A claim checked against a folder that never ran one of its values
// (written after the run, or a folder cut short) has nothing to compare: that is a question the folder cannot
// answer, not an inconclusive measurement that more runs would settle.
import { LabError } from '../errors.js';
import { matchesWhere, orderValues, sameValue } from '../cells/cell.js';
import { primaryMetrics } from '../domain/metrics.js';

const formatValue = (value) => (value === undefined || value === null ? 'unset' : String(value));

/**
 * What each claim names that the folder lacks: an axis it does not have, a `where` value no cell has, or a
 * compared value no cell (among those matching `where`) has.
 * @param {object[]} cells   [{ cell, values, workload }]
 * @param {string[]} axes    the folder's axis columns
 * @param {object[]} claims  normalized claims
 * @returns {{ claim: number, says: string, text: string }[]}  claim: 1-based; text: "the folder has no cell with …"
 */
export function findMissingClaimCells(cells, axes, claims) {
  return claims.flatMap((claim, index) => {
    const text = describeMissing(cells, axes, claim);
    return text ? [{ claim: index + 1, says: claim.says, text }] : [];
  });
}

/** The words for what the folder lacks for this claim, or null when it has every value the claim names. */
export function describeMissing(cells, axes, claim) {
  const where = claim.where ?? {};
  const [[axis, pair]] = Object.entries(claim.compare);
  for (const name of [...Object.keys(where), axis]) {
    if (!axes.includes(name)) return `the folder has no axis ${name}; its axes: ${axes.join(', ')}`;
  }
  for (const [name, wanted] of Object.entries(where)) {
    if (!cells.some((cell) => sameValue(cell.values[name], wanted)))
      return `the folder has no cell with ${name}=${formatValue(wanted)}; it has ${listValues(cells, name)}`;
  }
  const matching = cells.filter((cell) => matchesWhere(cell.values, where));
  const at = Object.keys(where).length
    ? ` at ${Object.entries(where)
        .map(([name, value]) => `${name}=${formatValue(value)}`)
        .join(' ')}`
    : '';
  const absent = pair.filter((value) => !matching.some((cell) => sameValue(cell.values[axis], value)));
  if (absent.length === 0) return null;
  return `the folder has no cell with ${absent.map((value) => `${axis}=${formatValue(value)}`).join(' or ')}${at}; ${at ? 'there ' : ''}it has ${listValues(matching, axis)}`;
}

function listValues(cells, axis) {
  const values = orderValues(cells.map((cell) => cell.values[axis]));
  return values.length ? values.map(formatValue).join(', ') : 'no cell';
}

/**
 * The claims' cells must all be in the folder: a LabError (exit 2) naming the first claim that asks for a value
 * the folder lacks, and what the folder has. For `claims`, where a person asks a folder a question.
 */
export function checkClaimCells(cells, axes, claims) {
  const missing = findMissingClaimCells(cells, axes, claims);
  if (missing.length === 0) return;
  const lines = missing.map(({ claim, says, text }) => `claim ${claim} ("${says}"): ${text}`);
  throw new LabError('ERR_USAGE', lines.join('\n'), {
    hint: 'check the claim against a folder that ran those values, or run them: add the value to the matrix and resume, or run the experiment again',
  });
}

/**
 * The metric a claim is judged on in these cells: its own, else the first primary metric of the workloads it covers.
 */
export function resolveClaimMetric(cells, claim) {
  if (claim.metric) return claim.metric;
  const workloads = [
    ...new Set(
      cells
        .filter((cell) => matchesWhere(cell.values, claim.where))
        .map((cell) => cell.workload)
        .filter(Boolean),
    ),
  ];
  return [
    ...new Set(
      workloads.flatMap((workload) =>
        primaryMetrics(workload)
          .slice(0, 1)
          .map((metric) => metric.column),
      ),
    ),
  ].join(' ');
}
