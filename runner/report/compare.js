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
import { median, significanceMark } from '../stats/statistics.js';
import { DEFAULT_COMPARISON, METHODS } from '../stats/compare-samples.js';
import { compareUnpaired } from '../verdicts/compare-pair.js';
import { DEFAULT_THRESHOLD, judgeChange, judgeGate, pairCells, parseThreshold } from '../verdicts/compare-cells.js';
import { primaryMetrics, findMetric } from '../domain/metrics.js';
import { varyingAxes } from '../cells/cell.js';
import { keepDelivered } from '../domain/delivery.js';
import { describeRatio, formatReading, READINGS } from './ratio-words.js';
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
  'words',
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
  // The runs an answer counts on each side (domain/delivery.js): none of a cell the host did not give its CPUs.
  const [cellsA, cellsB] = [a, b].map((results) => keepDelivered(summarizeCells(results).cells));
  const { pairs, onlyA, onlyB } = pairCells(cellsA, cellsB, { matchOn, paramsOf });
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
        n_a: x.length,
        n_b: y.length,
        median_a: median(x),
        median_b: median(y),
        mean_a: x.length ? mean(x) : null,
        mean_b: y.length ? mean(y) : null,
        ratio: result.ratio,
        ratio_ci95_low: result.ci95_low,
        ratio_ci95_high: result.ci95_high,
        p_value: p,
        significance: significanceMark(p),
        verdict,
        words: describeChange(result, { verdict, better, threshold, n: [x.length, y.length] }),
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
    // Rows a gate cannot judge: fewer than 2 runs that count on a side (missing, failed, disturbed or not delivered).
    unjudged: rows.filter((row) => row.n_a < 2 || row.n_b < 2),
  };
}

/**
 * B against A in the one vocabulary of ratios (report/ratio-words.js), read from the verdict the method's own test
 * gave: "1.04× slower than A [1.01, 1.07]", "about the same as A (…, inside ±5%)", "not distinguishable from A (…)";
 * "not judged" where a side has fewer than 2 runs that count.
 */
export function describeChange(result, { verdict, better, threshold, n: [nA, nB] }) {
  if (nA < 2 || nB < 2) return `not judged: fewer than 2 runs that count in ${nA < 2 ? 'A' : 'B'}`;
  const lowerIsBetter = better !== 'higher';
  // The ratio "worse / better" of B against A: B / A for a time, A / B for a rate.
  const worseRatio = lowerIsBetter
    ? result
    : { ratio: 1 / result.ratio, ci95_low: 1 / result.ci95_high, ci95_high: 1 / result.ci95_low };
  const reading = { worse: READINGS.worse, better: READINGS.better, same: READINGS.same }[verdict];
  return `B is ${describeRatio(worseRatio, {
    lowerIsBetter,
    than: 'A',
    margin: threshold,
    reading: reading ?? READINGS.undistinguished,
  })}`;
}

/** The table's short word for a row: the reading of describeChange without its numbers (the table has them). */
function formatRowReading(row) {
  if (row.n_a < 2 || row.n_b < 2) return 'not judged';
  const lowerIsBetter = findMetric(row.metric).better !== 'higher';
  const reading = { worse: READINGS.worse, better: READINGS.better, same: READINGS.same }[row.verdict];
  return formatReading(reading ?? READINGS.undistinguished, { lowerIsBetter });
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
      'reading',
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
      row.median_a === null ? '—' : `${formatNumber(row.median_a)} ${unit}`,
      row.median_b === null ? '—' : `${formatNumber(row.median_b)} ${unit}`,
      `${formatNumber(row.ratio)}${interval}`,
      row.significance,
      row.p_value === null ? 'n<2' : formatNumber(row.p_value, 2),
      formatRowReading(row),
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
    "Significance (that test): * p < 0.05, ** p < 0.01, *** p < 0.001. reading: B against A in the metric's words",
    '(slower / faster for a time, lower / higher for a rate) only when the CI excludes 1; "about the same" only when',
    `it lies inside ±${formatNumber(threshold * 100)}%; otherwise "not distinguishable" (more runs would tell); "not judged" with fewer`,
    'than 2 runs that count on a side.',
  );
  lines.push(`n ${labelA}/${labelB}: the runs that count on each side.`);
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
 * The gate's verdict in words: passed; FAILED with the cells that got worse by more than the threshold (named by their
 * axis values, with the Holm-corrected p of each); or NOT PASSED when no regression shows but some cells cannot be
 * judged (fewer than 2 runs that count on a side): missing data never passes a gate. Only meaningful with a threshold.
 * @returns {{ passed: boolean, status: 'passed'|'failed'|'incomplete', exitCode: 0|1|3, lines: string[] }}
 */
export function formatGate({ rows, regressions, unjudged = [], threshold }) {
  const limit = `${formatNumber(threshold * 100)}%`;
  const family = `Holm-corrected across the ${rows.length} comparison${rows.length === 1 ? '' : 's'}`;
  const missing = unjudged.map(
    (row) => `  ${row.label} ${row.metric} (n ${row.n_a}/${row.n_b}): fewer than 2 runs that count`,
  );
  if (regressions.length === 0 && unjudged.length === 0) {
    return {
      passed: true,
      status: 'passed',
      exitCode: 0,
      lines: [`gate: passed, no cell is worse by more than ${limit} with its whole 95% CI beyond it (${family})`],
    };
  }
  if (regressions.length === 0) {
    return {
      passed: false,
      status: 'incomplete',
      exitCode: 3,
      lines: [
        `gate: NOT PASSED, ${unjudged.length} of ${rows.length} comparison${rows.length === 1 ? '' : 's'} cannot be judged (a cell with fewer than 2 runs that count on a side: failed, disturbed, not delivered or missing); no regression beyond ${limit} among the others:`,
        ...missing,
      ],
    };
  }
  const named = regressions.map(
    (row) =>
      `${row.label} ${row.metric} ×${formatNumber(row.ratio, 3)} [${formatNumber(row.ratio_ci95_low, 3)}, ${formatNumber(row.ratio_ci95_high, 3)}] (n ${row.n_a}/${row.n_b}, p ${formatNumber(row.p_regression_holm, 2)})`,
  );
  return {
    passed: false,
    status: 'failed',
    exitCode: 1,
    lines: [
      `gate: FAILED, ${regressions.length} worse by more than ${limit} with the whole 95% CI beyond it (${family}):`,
      ...named.map((text) => `  ${text}`),
      ...(unjudged.length ? [`and ${unjudged.length} cannot be judged:`, ...missing] : []),
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
 * @returns {{ comparison: object, hosts: object, text: string, gate: 'passed'|'failed'|'incomplete'|null,
 *   exitCode: 0|1|3, files: string[] }}  exitCode 1: the gate failed (a regression); 3: no regression, but some cells
 *   cannot be judged (fewer than 2 runs that count on a side); hosts: { same, differences: [{ fact, label, a, b }], a,
 *   b } (results/host-facts.js)
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
  const verdict = gate ? formatGate(comparison) : { status: null, exitCode: 0, lines: [] };
  lines.push(...verdict.lines);
  if (gate && !hosts.same) lines.push('(a gate across different hosts, as --allow-different-hosts asked)');
  return { comparison, hosts, text: `${lines.join('\n')}\n`, gate: verdict.status, exitCode: verdict.exitCode, files };
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
