// A folder's cells (and its experiment's claims) → every verdict: the claims' rows, the automatic steps, which
// axis moves each metric most, and the rows of verdicts.csv.
import { roundTo, summarizeCells } from './summary.js';
import { judgeClaims } from '../verdicts/judge-claims.js';
import { judgeSteps } from '../verdicts/steps.js';
import { CHANGE_VERDICTS } from '../verdicts/regions.js';
import { formatVerdictRow } from './verdict-words.js';
import { checkClaimCells } from '../verdicts/claim-cells.js';
import { keepDelivered } from '../domain/delivery.js';

export const VERDICT_COLUMNS = [
  'kind',
  'claim',
  'says',
  'metric',
  'axis',
  'a',
  'b',
  'where',
  'n_a',
  'n_b',
  'median_a',
  'median_b',
  'ratio',
  'ratio_ci95_low',
  'ratio_ci95_high',
  'expect',
  'verdict',
  'runs_needed',
  'p_holm',
  'family',
  'method',
  'confidence',
  'model_ratio',
  'class',
  'class_note',
  'words',
];

/**
 * Judges a results folder (readResults): its experiment's claims (run.json's, or those given) and every step. The
 * one place a folder is judged: the reports, `claims`, the findings page and the API all come here.
 * @param {object} results
 * @param {{ claims?: object[], summary?: object, requireCells?: boolean }} [options]  summary: summarizeCells(results),
 *   when already made; requireCells: a claim naming a value the folder has no cell for is a LabError (exit 2), as
 *   `claims` wants it — otherwise (a report of a folder cut short) its overall row says what the folder lacks
 */
export function judgeResults(
  results,
  { claims = results.info?.config?.claims ?? [], summary = summarizeCells(results), requireCells = false } = {},
) {
  if (requireCells) checkClaimCells(summary.cells, results.axes, claims);
  // The runs the answers count: none of a cell the host did not give its CPUs (domain/delivery.js), as in the advice.
  return buildVerdicts(keepDelivered(summary.cells), results.axes, claims);
}

/**
 * @param {object[]} cells   [{ cell, values, workload, runs }]
 * @param {string[]} axes
 * @param {object[]} [claims]
 * @returns {{ rows: object[], claims: object[], steps: object[], leaders: object[], columns: string[],
 *   csvRows: object[], exitCode: 0|1|3 }}  exitCode: 0 every claim holds (or none), 1 one is refuted, 3 some
 *   inconclusive, none refuted
 */
export function buildVerdicts(cells, axes, claims = []) {
  const claimRows = judgeClaims(cells, axes, claims).map(withWords);
  const steps = judgeSteps(cells, axes).map(withWords);
  const rows = [...claimRows, ...steps];
  const overall = claimRows.filter((row) => row.kind === 'claim-overall');
  return {
    rows,
    claims: claimRows,
    steps,
    leaders: findLeaders(steps),
    columns: VERDICT_COLUMNS,
    csvRows: rows.map(toCsvRow),
    exitCode: claimsExitCode(overall),
  };
}

export function claimsExitCode(overallRows) {
  if (overallRows.some((row) => row.verdict === 'refuted')) return 1;
  if (overallRows.some((row) => row.verdict !== 'holds')) return 3;
  return 0;
}

function withWords(row) {
  return { ...row, words: formatVerdictRow(row) };
}

/** Per workload and metric: the called step with the largest effect, and its axis. */
function findLeaders(steps) {
  const best = new Map();
  for (const row of steps) {
    if (!CHANGE_VERDICTS.has(row.verdict)) continue;
    const key = `${row.workload}\u0000${row.metric}`;
    const size = Math.abs(Math.log(row.comparison.ratio));
    if (!best.has(key) || size > best.get(key).size) best.set(key, { size, row });
  }
  const workloads = [...new Set(steps.map((row) => `${row.workload}\u0000${row.metric}`))];
  return workloads.map((key) => {
    const [workload, metric] = key.split('\u0000');
    const found = best.get(key)?.row ?? null;
    // "Beyond the noise" only where runs were compared: steps with no run counted on a side judge nothing.
    const judged = steps.filter(
      (row) => `${row.workload}\u0000${row.metric}` === key && row.comparison?.n_a > 0 && row.comparison?.n_b > 0,
    );
    const none = `${workload} ${metric}: no step could be judged — no run counted on both sides of any (each failed, was a warm-up, or was disturbed)`;
    return {
      workload,
      metric,
      axis: found?.axis ?? null,
      step: found,
      words: found
        ? `${workload} ${metric}: ${found.axis} moves it most (${found.words})`
        : judged.length === 0
          ? none
          : `${workload} ${metric}: no step changes it beyond the noise (${judged.length} judged)`,
    };
  });
}

function toCsvRow(row) {
  const comparison = row.comparison ?? {};
  return {
    kind: row.kind,
    claim: row.claim,
    says: row.says,
    metric: row.metric,
    axis: row.axis,
    a: row.a,
    b: row.b,
    where: row.where,
    n_a: comparison.n_a,
    n_b: comparison.n_b,
    median_a: roundTo(row.median_a),
    median_b: roundTo(row.median_b),
    ratio: roundTo(comparison.ratio),
    ratio_ci95_low: roundTo(comparison.ci95_low),
    ratio_ci95_high: roundTo(comparison.ci95_high),
    expect: row.expect,
    verdict: row.verdict,
    runs_needed: row.runs_needed,
    p_holm: row.kind === 'claim-overall' ? null : roundTo(row.p, 4),
    family: row.family,
    // The method that made the interval, and the level it reached (a rank interval at 5 vs 5 runs: 0.968, not 0.95).
    method: comparison.method ? `${comparison.method}${comparison.paired ? ' paired' : ''}` : null,
    confidence: roundTo(comparison.confidence, 4),
    model_ratio: roundTo(row.model_ratio),
    class: row.class,
    class_note: row.class_note,
    words: row.words,
  };
}
