// "Model vs measured": per cell and metric, the measured median with the cell's one interval (the 95% CI of its
// centre, runner/stats/ratio.js centreInterval: the summary's and the whiskers' too), the capacity model's value
// (runner/model/), and a flag where the model lies outside that interval. This is where a cell that lost
// something the host did not take (a dearer throttled window, lanes that wait for each other) shows itself.
// Kept apart from markdown.js and html.js so the report's layout can change without it.
import { median } from '../stats/statistics.js';
import { findMetric } from '../domain/metrics.js';
import { centreInterval } from '../stats/ratio.js';
import { escapeHtml } from './html-escape.js';
import { formatNumber } from './format.js';
import { varyingAxes } from '../cells/cell.js';
import { CENTRE_CI_HEADER } from './summary-table.js';
import { usableCpus } from '../domain/usable-cpus.js';

export const MODEL_INTRO =
  "The capacity model gives what this host allows each cell: the workload's own arithmetic (tasks in waves over the " +
  "threads that run them, sharing the usable CPUs = the smallest of the quota, the cpuset size and the host's CPUs, " +
  'less what the rest of the host took from them while the cell ran (the CPUs column); ' +
  'http: CPUs over the CPU time of one response; idle memory: a fit per process and per thread) with a calibration ' +
  "measured in this folder (below). The interval is the cell's one 95% CI, as in the summary and the charts' " +
  "whiskers: that of its geometric mean (Student's t on the logarithms). The model's range is its value at either " +
  "end of the calibration's own interval (of its median, from order statistics). A flag says the two " +
  'ranges do not overlap: "short of the model" = the cell did worse than the host allows, "beats the model" = ' +
  'better than the model says (the model misses something).';

/**
 * @returns {{ workload: string, calibrations: string[], axes: string[], rows: object[] }[]}  per workload with a
 *   model; rows: { cell, values, metric, unit, n, median, interval, model, ratio, flag }
 */
export function buildModelTables(report) {
  return report.workloads.flatMap((workload) => {
    const cells = report.summary.cells.filter((cell) => cell.workload === workload);
    const rows = cells.flatMap((cell) =>
      Object.entries(cell.model ?? {}).flatMap(([metric, model]) => compareCell(cell, metric, model)),
    );
    if (rows.length === 0) return [];
    const calibrations = [
      ...new Set(cells.map((cell) => cell.calibration && describeCalibration(cell.calibration)).filter(Boolean)),
    ];
    return [
      {
        workload,
        calibrations,
        axes: varyingAxes(cells, report.axes, { orAllSet: true }).filter((axis) => axis !== 'workload'),
        rows,
      },
    ];
  });
}

function compareCell(cell, metric, model) {
  const sample = cell.runs.map((run) => run[metric]).filter(Number.isFinite);
  if (sample.length === 0) return [];
  const { unit, better } = findMetric(metric);
  const interval = centreInterval(sample);
  const middle = cell.stats[metric]?.median ?? median(sample);
  const range = cell.modelRange?.[metric] ?? [model, model];
  return [
    {
      cell: cell.cell,
      values: cell.values,
      metric,
      unit,
      n: sample.length,
      median: middle,
      interval,
      model,
      range,
      cpus: describeCpus(cell),
      ratio: middle / model,
      flag: interval || sample.length < 2 ? flagOf(interval, range, better) : 'no interval (a value ≤ 0)',
    },
  ];
}

// The two intervals apart, the measured one on the worse side: the host gave less than the model; on the better side:
// more.
function flagOf(interval, [low, high], better) {
  if (!interval) return 'n < 2';
  if (interval.high >= low && interval.low <= high) return '';
  const measuredHigher = interval.low > high;
  return measuredHigher === (better === 'higher') ? 'beats the model' : 'short of the model';
}

// The CPUs the model gave the cell: allowed, and what the others left of them where they took some ("2 → 1.34").
function describeCpus(cell) {
  const allowed = usableCpus(cell.values, cell.hostCpus);
  if (allowed === null) return '';
  const left = Math.max(0, Math.min(allowed, cell.hostCpus - (cell.takenCpus ?? 0)));
  return left < allowed - 0.005 ? `${formatNumber(allowed)} → ${formatNumber(left, 3)}` : formatNumber(allowed);
}

function describeCalibration(calibration) {
  return `${calibration.describe} (${calibration.kind === 'lowest' ? `cell ${calibration.baseCell}, ` : ''}${calibration.runs} runs in ${calibration.cells} cell${calibration.cells === 1 ? '' : 's'})`;
}

/** The table's header and text rows, as report.md and report.html show them. */
export function formatModelTable({ axes, rows }) {
  const header = [...axes, 'metric', 'n', 'median', CENTRE_CI_HEADER, 'CPUs', 'model', 'measured / model', 'flag'];
  const body = rows.map((row) => [
    ...axes.map((axis) => row.values[axis] ?? 'unset'),
    `${row.metric}${row.unit ? ` (${row.unit})` : ''}`,
    row.n,
    formatNumber(row.median),
    row.interval ? `${formatNumber(row.interval.low)}–${formatNumber(row.interval.high)}` : '',
    row.cpus,
    `${formatNumber(row.model)}${row.range[0] === row.range[1] ? '' : ` (${formatNumber(row.range[0])}–${formatNumber(row.range[1])})`}`,
    formatNumber(row.ratio, 3),
    row.flag,
  ]);
  return { header, body };
}

export function renderModelMarkdown(report, escape) {
  const tables = buildModelTables(report);
  if (tables.length === 0) return [];
  const lines = ['## Model vs measured', '', escape(MODEL_INTRO), ''];
  for (const table of tables) {
    const { header, body } = formatModelTable(table);
    const line = (cells) => `| ${cells.map((cell) => escape(String(cell))).join(' | ')} |`;
    lines.push(
      `### ${escape(table.workload)}`,
      '',
      ...table.calibrations.map((text) => `- Calibration: ${escape(text)}`),
      '',
    );
    lines.push(line(header), `|${header.map(() => ' --- ').join('|')}|`, ...body.map(line), '');
  }
  return lines;
}

export function renderModelHtml(report) {
  const tables = buildModelTables(report);
  if (tables.length === 0) return null;
  const parts = tables.map((table) => {
    const { header, body } = formatModelTable(table);
    const head = header.map((cell) => `<th>${escapeHtml(cell)}</th>`).join('');
    const rows = body
      .map(
        (cells, i) =>
          `<tr${table.rows[i].flag && table.rows[i].flag !== 'n < 2' ? ' class="off-model"' : ''}>${cells.map((cell) => `<td>${escapeHtml(String(cell))}</td>`).join('')}</tr>`,
      )
      .join('\n');
    const calibrations = table.calibrations.map((text) => `<li>Calibration: ${escapeHtml(text)}</li>`).join('');
    return `<h3>${escapeHtml(table.workload)}</h3><ul>${calibrations}</ul><div class="scroll"><table class="model-table"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table></div>`;
  });
  return `<section id="model"><h2>Model vs measured</h2><p class="intro">${escapeHtml(MODEL_INTRO)}</p>${parts.join('\n')}</section>`;
}

export const MODEL_STYLE = '.model-table tr.off-model td { background: #fdf1e6; }\n';
