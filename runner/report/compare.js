// Two results folders → per cell present in both and per primary metric: both medians, the ratio B / A with its 95%
// interval by the comparison method of docs/statistics.md (stats/compare-samples.js DEFAULT_COMPARISON, unpaired:
// two folders share no rounds), the p-value, Node's significance stars and a verdict that is "same" only when the
// interval lies inside the threshold; with a threshold, the gate over all of them (Holm-corrected). Folders measured
// on different hosts are told first, and the gate refuses them unless allowed. compareFolders is the whole command:
// what any CLI calls.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { mean } from 'simple-statistics';
import { LabError } from '../errors.js';
import { significanceMark } from '../stats/statistics.js';
import { DEFAULT_COMPARISON, METHODS } from '../stats/compare-samples.js';
import { compareUnpaired } from '../verdicts/compare-pair.js';
import { DEFAULT_THRESHOLD, judgeChange, judgeGate, pairCells, parseThreshold } from '../verdicts/compare-cells.js';
import { primaryMetrics, findMetric } from '../domain/metrics.js';
import { varyingAxes } from '../cells/cell.js';
import { readResults } from '../results/read-results.js';
import { findHostDifferences, readHostFacts } from '../results/host-facts.js';
import { formatCsv } from '../results/csv.js';
import { roundTo, summarizeCells } from './summary.js';
import { formatCellValues, formatNumber } from './format.js';

export const COMPARE_COLUMNS = [
  'cell',
  'cell_b',
  'metric',
  'n_a',
  'n_b',
  'median_a',
  'median_b',
  'mean_a',
  'mean_b',
  'ratio',
  'ratio_ci95_low',
  'ratio_ci95_high',
  'p_value',
  'significance',
  'verdict',
  'p_regression_holm',
  'regression',
];

/**
 * @param {object} a  readResults(DIR_A): the reference
 * @param {object} b  readResults(DIR_B): the one being judged
 * @param {{ threshold?: number, matchOn?: string }} [options]  threshold: half-width of the "same" band and
 *   the regression gate (0.05 = 5%); matchOn: pair cells that differ only in this axis (e.g. `node`)
 * @returns {{ columns: string[], rows: object[], axes: string[], onlyA: object[], onlyB: object[], threshold: number,
 *   matchOn: string|undefined, regressions: object[] }}
 *   verdict (in the metric's direction): `better` / `worse` when the interval excludes 1, `same` when it lies inside
 *   ±threshold, else `inconclusive`; regression: worse by more than the threshold, the whole interval beyond it
 *   after Holm's correction across every row (p_regression_holm < 0.05); onlyA / onlyB: cells ({cell, values}) in
 *   one folder only; every row also carries `label`, its cell named by the axis values that vary
 */
export function compareResults(a, b, { threshold = DEFAULT_THRESHOLD, matchOn } = {}) {
  const axes = [...new Set([...a.axes, ...b.axes])];
  const paramsOf = (side, id) => (side === 'a' ? a : b).info?.cells?.find((cell) => cell.cell === id)?.params ?? null;
  const { pairs, onlyA, onlyB } = pairCells(summarizeCells(a).cells, summarizeCells(b).cells, { matchOn, paramsOf });
  const rows = [];
  const pRegression = [];
  const naming = varyingAxes(
    pairs.map(({ a: cell }) => cell),
    axes,
    { orAllSet: true },
  );
  for (const { a: cellA, b: cellB } of pairs) {
    for (const { column, better } of primaryMetrics(cellA.workload)) {
      const x = cellA.runs.map((run) => run[column]).filter(Number.isFinite);
      const y = cellB.runs.map((run) => run[column]).filter(Number.isFinite);
      const result = compareUnpaired(x, y);
      const { verdict, p, p_regression: pWorse } = judgeChange(result, better, threshold);
      pRegression.push(pWorse);
      const row = {
        label: formatCellLabel(cellA.values, cellB.values, naming, matchOn),
        cell: cellA.cell,
        cell_b: cellB.cell,
        ...Object.fromEntries(
          axes.map((axis) => [
            axis,
            axis === matchOn ? `${cellA.values[axis] ?? ''}→${cellB.values[axis] ?? ''}` : cellA.values[axis],
          ]),
        ),
        metric: column,
        n_a: cellA.stats[column].n,
        n_b: cellB.stats[column].n,
        median_a: cellA.stats[column].median,
        median_b: cellB.stats[column].median,
        mean_a: x.length ? mean(x) : null,
        mean_b: y.length ? mean(y) : null,
        ratio: result.ratio,
        ratio_ci95_low: result.ci95_low,
        ratio_ci95_high: result.ci95_high,
        p_value: p,
        significance: significanceMark(p),
        verdict,
      };
      for (const key of [
        'median_a',
        'median_b',
        'mean_a',
        'mean_b',
        'ratio',
        'ratio_ci95_low',
        'ratio_ci95_high',
        'p_value',
      ])
        row[key] = roundTo(row[key]);
      rows.push(row);
    }
  }
  judgeGate(pRegression).forEach(({ p_holm: pHolm, regression }, i) =>
    Object.assign(rows[i], { p_regression_holm: roundTo(pHolm, 4), regression }),
  );
  const pick = ({ cell, values }) => ({ cell, values });
  return {
    columns: [...COMPARE_COLUMNS.slice(0, 2), ...axes, ...COMPARE_COLUMNS.slice(2)],
    rows,
    axes,
    onlyA: onlyA.map(pick),
    onlyB: onlyB.map(pick),
    threshold,
    matchOn,
    regressions: rows.filter((row) => row.regression),
  };
}

// "cpus=0.5 workers=1": the axis values that tell the compared cells apart (the workload first when it varies);
// with --match-on, that axis as A→B.
function formatCellLabel(valuesA, valuesB, axes, matchOn) {
  const shown = axes.filter((axis) => axis !== matchOn);
  const label = formatCellValues(valuesA, shown);
  if (!matchOn) return label;
  return `${label}${label ? ' ' : ''}${matchOn}=${valuesA[matchOn] ?? 'unset'}→${valuesB[matchOn] ?? 'unset'}`;
}

/** The comparison as an aligned text table for the terminal, with the legend Node's compare prints. */
export function formatComparison(
  { rows, onlyA, onlyB, axes, threshold = DEFAULT_THRESHOLD },
  { labelA = 'A', labelB = 'B' } = {},
) {
  const table = [
    [
      'cell',
      'metric',
      `n ${labelA}/${labelB}`,
      `median ${labelA}`,
      `median ${labelB}`,
      `ratio ${labelB}/${labelA} [95% CI]`,
      '',
      'p',
      'verdict',
    ],
  ];
  for (const row of rows) {
    const { unit } = findMetric(row.metric);
    const interval =
      row.ratio_ci95_low === null ? '' : ` [${formatNumber(row.ratio_ci95_low)}, ${formatNumber(row.ratio_ci95_high)}]`;
    table.push([
      row.label,
      row.metric,
      `${row.n_a}/${row.n_b}`,
      `${formatNumber(row.median_a)} ${unit}`,
      `${formatNumber(row.median_b)} ${unit}`,
      `${formatNumber(row.ratio)}${interval}`,
      row.significance,
      row.p_value === null ? 'n<2' : formatNumber(row.p_value, 2),
      row.verdict,
    ]);
  }
  const widths = table[0].map((_, i) => Math.max(...table.map((line) => line[i].length)));
  const lines = table.map((line) =>
    line
      .map((text, i) => (i >= 2 && i <= 4 ? text.padStart(widths[i]) : text.padEnd(widths[i])))
      .join('  ')
      .trimEnd(),
  );
  const tested = rows.filter((row) => row.p_value !== null).length;
  lines.push(
    '',
    `ratio = B / A as the ${METHODS[DEFAULT_COMPARISON.method].estimates}, unpaired (two folders share no rounds);`,
    'its 95% CI and p come from that method (docs/statistics.md says why it is the one in use).',
    "Significance (that test): * p < 0.05, ** p < 0.01, *** p < 0.001. verdict follows the metric's direction",
    '(lower wall_ms / latency is better, higher requests_per_sec is better): better / worse when the CI excludes 1,',
    `same only when the CI lies inside ±${formatNumber(threshold * 100)}%, otherwise inconclusive (more runs would tell).`,
  );
  lines.push(`n ${labelA}/${labelB}: the measured runs on each side.`);
  if (tested > 0) {
    lines.push(
      `Be aware that with ${tested} comparisons about ${formatNumber(tested * 0.05, 2)} will show *, ${formatNumber(tested * 0.01, 2)} ** and ${formatNumber(tested * 0.001, 2)} *** by chance alone when nothing changed.`,
    );
  }
  for (const [label, cells] of [
    [labelA, onlyA],
    [labelB, onlyB],
  ]) {
    if (cells.length)
      lines.push(
        `Only in ${label} (not compared; a changed param, env or memory limit makes a new cell id; --match-on AXIS pairs cells across one axis): ${cells.map(({ cell, values }) => `${cell} (${formatCellValues(values, axes)})`).join(', ')}`,
      );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The gate's verdict in words: passed, or which cells got worse by more than the threshold (named by their axis
 * values), with the Holm-corrected p of each. Only meaningful when a threshold was asked for.
 * @returns {{ passed: boolean, lines: string[] }}
 */
export function formatGate({ rows, regressions, threshold }) {
  const limit = `${formatNumber(threshold * 100)}%`;
  const family = `Holm-corrected across the ${rows.length} comparison${rows.length === 1 ? '' : 's'}`;
  if (regressions.length === 0) {
    return {
      passed: true,
      lines: [`gate: passed, no cell is worse by more than ${limit} with its whole 95% CI beyond it (${family})`],
    };
  }
  const named = regressions.map(
    (row) =>
      `${row.label} ${row.metric} ×${formatNumber(row.ratio, 3)} [${formatNumber(row.ratio_ci95_low, 3)}, ${formatNumber(row.ratio_ci95_high, 3)}] (n ${row.n_a}/${row.n_b}, p ${formatNumber(row.p_regression_holm, 2)})`,
  );
  return {
    passed: false,
    lines: [
      `gate: FAILED, ${regressions.length} worse by more than ${limit} with the whole 95% CI beyond it (${family}):`,
      ...named.map((text) => `  ${text}`),
    ],
  };
}

/**
 * The compare command over two folders, printing nothing: the text to print, the exit status and the files written.
 * @param {object} options
 * @param {string} options.dirA  the reference folder (before)
 * @param {string} options.dirB  the folder judged against it (after)
 * @param {string|number} [options.threshold]  as typed: "5", "5%" or "0.5%"; with it the comparison is a gate
 * @param {string} [options.matchOn]  pair cells that differ only in this axis
 * @param {string} [options.out]  write compare.csv there (only when given)
 * @param {boolean} [options.allowDifferentHosts]  gate folders measured on different hosts all the same
 * @returns {{ comparison: object, hosts: object, text: string, exitCode: 0|1, files: string[] }}  exitCode 1: the
 *   gate failed; hosts: { same, differences: [{ fact, label, a, b }], a, b } (results/host-facts.js)
 */
export function compareFolders({ dirA, dirB, threshold, matchOn, out, keepDisturbed, allowDifferentHosts = false }) {
  const gate = threshold !== undefined && threshold !== null;
  // A number is already a fraction (the API's 0.05); text is what a person typed ("5", "5%").
  const fraction = !gate ? DEFAULT_THRESHOLD : typeof threshold === 'number' ? threshold : parseThreshold(threshold);
  const [a, b] = [resolve(dirA), resolve(dirB)];
  const [resultsA, resultsB] = [readResults(a, { keepDisturbed }), readResults(b, { keepDisturbed })];
  const axes = [...new Set([...resultsA.axes, ...resultsB.axes])];
  if (matchOn !== undefined && !axes.includes(matchOn)) {
    throw new LabError('ERR_USAGE', `--match-on ${matchOn}: neither folder has an axis of that name`, {
      hint: `axes in these folders: ${axes.join(', ')}`,
    });
  }
  const hosts = compareHosts(resultsA, resultsB, matchOn);
  if (gate && !hosts.same && !allowDifferentHosts) throw refuseGate(hosts, { a, b });
  const comparison = compareResults(resultsA, resultsB, { threshold: fraction, matchOn });
  if (comparison.rows.length === 0) {
    throw new LabError('ERR_USAGE', `${a} and ${b} have no cell in common`, {
      hint: matchOn
        ? `with --match-on ${matchOn}, cells pair when every other axis value and the params are equal`
        : 'cells match by the `cell` id, which changes with any axis value, param, env or memory limit; to compare across one axis (e.g. Node versions) add --match-on AXIS',
    });
  }
  const files = [];
  if (out) {
    const path = resolve(out);
    writeFileSync(path, formatCsv(comparison.rows, comparison.columns, { header: true }));
    files.push(path);
  }
  const lines = [
    ...formatHostDifferences(hosts.differences),
    `A = ${a}`,
    `B = ${b}`,
    '',
    formatComparison(comparison, { labelA: 'A', labelB: 'B' }).trimEnd(),
  ];
  for (const file of files) lines.push(`wrote ${file}`);
  const verdict = gate ? formatGate(comparison) : { passed: true, lines: [] };
  lines.push(...verdict.lines);
  if (gate && !hosts.same) lines.push('(a gate across different hosts, as --allow-different-hosts asked)');
  return { comparison, hosts, text: `${lines.join('\n')}\n`, exitCode: verdict.passed ? 0 : 1, files };
}

function compareHosts(resultsA, resultsB, matchOn) {
  const factsA = readHostFacts(resultsA.info, resultsA.runs);
  const factsB = readHostFacts(resultsB.info, resultsB.runs);
  const differences = findHostDifferences(factsA, factsB, { matchOn });
  return { same: differences.length === 0, differences, a: factsA, b: factsB };
}

/** The warning that opens the text when the hosts differ: each fact on its own line, A's value then B's. */
export function formatHostDifferences(differences) {
  if (differences.length === 0) return [];
  const width = Math.max(...differences.map(({ label }) => label.length));
  return [
    'Different hosts: A and B were measured on different machines or software, so a change below may be the',
    "host's rather than yours:",
    ...differences.map(({ label, a, b }) => `  ${label.padEnd(width)}  A: ${a}  B: ${b}`),
    '',
  ];
}

function refuseGate(hosts, { a, b }) {
  const named = hosts.differences.map(({ label, a: valueA, b: valueB }) => `${label} ${valueA} vs ${valueB}`);
  return new LabError(
    'ERR_HOSTS_DIFFER',
    `${a} and ${b} were measured on different hosts (${named.join('; ')}): a gate across them would judge the hosts, not the change`,
    {
      hint: 'measure both on one host, or add --allow-different-hosts to gate all the same; without --threshold, compare shows the table with this warning first',
    },
  );
}
