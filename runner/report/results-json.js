// The machine-readable face of a results folder: results.json (next to the CSVs) and what `claims --json` prints.
// The numbers are summary.csv's and verdicts.csv's, only grouped: a cell with its metrics, each metric with its
// statistics; a verdict row as verdicts.csv has it. Built from the report, never computed again.
import { SUMMARY_STATS } from '../stats/statistics.js';

export const RESULTS_JSON_VERSION = 1;

const CLAIMS_VERDICT = { 0: 'holds', 1: 'refuted', 3: 'inconclusive' };

/** The verdicts of judgeResults (report/verdicts.js) as plain data: claims and steps as rows of verdicts.csv. */
export function buildVerdictsDocument(verdicts) {
  const claims = verdicts.csvRows.slice(0, verdicts.claims.length);
  const overall = claims.filter((row) => row.kind === 'claim-overall');
  return {
    // 0 every claim holds (or there are none), 1 one is refuted, 3 some are inconclusive and none refuted
    exit_code: verdicts.exitCode,
    claims_verdict: overall.length === 0 ? null : CLAIMS_VERDICT[verdicts.exitCode],
    claims,
    steps: verdicts.csvRows.slice(verdicts.claims.length),
    leaders: verdicts.leaders.map(({ workload, metric, axis, words }) => ({ workload, metric, axis, words })),
  };
}

/**
 * @param {object} report  buildReport(...) (report/build-report.js)
 * @returns {object}  { format, experiment, axes, runs,
 *   cells: [{ cell, values, ..., metrics: { <metric>: { median, ... } } }], verdicts }
 */
export function buildResultsDocument(report) {
  const { axes, summary } = report;
  const metricColumns = summary.metrics.map(({ column }) => column);
  const described = new Map(summary.metrics.map(({ column, unit, better }) => [column, { unit, better }]));
  const grouped = new Set([
    ...axes,
    ...metricColumns.flatMap((column) => [...SUMMARY_STATS.map((stat) => `${column}_${stat}`), `model_${column}`]),
  ]);
  return {
    format: RESULTS_JSON_VERSION,
    tool: 'node-threads-lab',
    experiment: report.experiment,
    axes,
    runs: report.counts,
    cells: summary.rows.map((row) => ({
      cell: row.cell,
      values: Object.fromEntries(axes.filter((axis) => row[axis] !== undefined).map((axis) => [axis, row[axis]])),
      // Every other column of summary.csv as it is (n, failed, speedup, seen_*_median, ...); the experiment is above.
      ...Object.fromEntries(
        Object.entries(row).filter(([column]) => column !== 'cell' && column !== 'experiment' && !grouped.has(column)),
      ),
      metrics: Object.fromEntries(
        metricColumns
          .filter((column) => row[`${column}_median`] !== undefined)
          .map((column) => [
            column,
            {
              ...described.get(column),
              ...Object.fromEntries(SUMMARY_STATS.map((stat) => [stat, row[`${column}_${stat}`]])),
              model: row[`model_${column}`] ?? null,
            },
          ]),
      ),
    })),
    verdicts: buildVerdictsDocument(report.verdicts),
  };
}
