// The report model → report.html: one file that opens offline. Heatmaps are SVG built here; the line,
// waves and latency charts are Chart.js, whose UMD build is inlined from node_modules with the data.
// A Content-Security-Policy forbids every fetch, so the page cannot depend on the network by accident.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { escapeHtml, jsonForScript, scriptForInline } from './html-escape.js';
import { renderHeatmap } from './heatmap.js';
import { axisLabel, findMetric } from '../domain/metrics.js';
import { getWorkload } from '../domain/workloads.js';
import { formatPivotValue, formatAxisValue } from './pivot.js';
import { varyingAxes } from '../cells/cell.js';
import { median } from '../stats/statistics.js';
import { buildSummaryTable } from './summary-table.js';
import { ANSWERS_STYLE, WHISKER_TEXT, renderAnswersHtml, renderMethodHtml } from './answers.js';
import { BOUND_WORDS } from './advice.js';
import { chooseAxisScale } from './axis-scale.js';
import { splitPanels } from './chart-panels.js';
import { chooseWavesRun } from './waves.js';
import { MODEL_STYLE, renderModelHtml } from './model-table.js';

const require = createRequire(import.meta.url);
// The package exports no path to its UMD build; it sits next to the CommonJS entry point.
const CHART_JS = join(dirname(require.resolve('chart.js')), 'chart.umd.js');
const CLIENT = new URL('./assets/report-charts.js', import.meta.url);
const CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";

export function renderHtml(report) {
  const data = buildChartData(report);
  const heatmaps = report.pivots.map((pivot, index) =>
    figure(pivotTitle(pivot), renderHeatmap(pivot, { id: `heatmap-${index}` })),
  );
  // The answers first (advice, then claims and steps); the charts and tables that back them; how it is judged last.
  const sections = [
    report.advice.tables.length ? renderAdviceHtml(report.advice) : '',
    renderAnswersHtml(report.verdicts),
    section(
      'heatmaps',
      'Heatmaps',
      'Each pivot table, coloured by value (by default the median of each primary metric). Hover a cell for its value.',
      heatmaps,
    ),
    section(
      'scaling',
      'Against threads, one line per CPU limit',
      `Points: medians. Whiskers: ${WHISKER_TEXT} Numeric axes are spaced by value (log₂ for powers of two). Dashed: the capacity model, what this host allows each cell (see Model vs measured).`,
      data.lines.map((line) => figure(line.title, canvas(line.id, 360))),
    ),
    section(
      'waves',
      'Task completion waves',
      'One run: each bar is a task, from when it was submitted to when it completed. Tasks that share the pool finish in waves; the page opens on the run whose waves are clearest.',
      data.waves.runs.length ? [wavesPicker(data.waves), figure('', canvas('waves-chart', data.waves.height))] : [],
    ),
    section(
      'latency',
      'Latency percentiles (http)',
      `Medians over repetitions of each percentile autocannon reported, log scale${data.latency.axis ? `; one panel per ${data.latency.axis}, the same colour for the same series in each` : ''}.`,
      data.latency.panels.map((panel) =>
        figure(panel.title || 'Latency percentiles per cell', canvas(panel.id, data.latency.axis ? 300 : 380)),
      ),
    ),
    section(
      'summary',
      'Summary',
      'The same numbers as summary.csv, rounded for reading.',
      report.workloads.map((workload) => summaryTable(report, workload)),
    ),
    section(
      'notes',
      'Notes',
      'What to know before reading the numbers above (the same notes as report.md).',
      report.notes.length ? [`<ul>${report.notes.map((note) => `<li>${escapeHtml(note)}</li>`).join('\n')}</ul>`] : [],
    ),
    renderModelHtml(report),
    renderMethodHtml(),
  ].filter(Boolean);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(`${report.experiment}: report`)}</title>
<style>${STYLE}${ANSWERS_STYLE}${MODEL_STYLE}</style>
</head>
<body>
<header><h1>${escapeHtml(report.experiment)}</h1>${renderHeader(report)}</header>
${sections.join('\n')}
<script type="application/json" id="report-data">${jsonForScript(data)}</script>
<script>${scriptForInline(readFileSync(CHART_JS, 'utf8'))}</script>
<script>${scriptForInline(readFileSync(CLIENT, 'utf8'))}</script>
</body>
</html>
`;
}

function renderHeader({ info, counts }) {
  const parts = [
    `${counts.measured} measured runs${counts.failed ? `, ${counts.failed} not ok` : ''}${counts.warmups ? `, ${counts.warmups} warm-up` : ''}${counts.disturbed ? `, ${counts.disturbed} disturbed (${counts.reruns} re-run)` : ''}`,
  ];
  if (info?.host) parts.push(`host: ${info.host.cpu_model ?? 'unknown CPU'}, ${info.host.cpus} CPUs`);
  if (info?.started_at) parts.push(`started ${info.started_at}`);
  if (info?.seed !== undefined) parts.push(`seed ${info.seed}`);
  const description = info?.config?.description ? `<p>${escapeHtml(info.config.description)}</p>` : '';
  return `${description}<p class="meta">${escapeHtml(parts.join(' · '))}</p>`;
}

function buildChartData(report) {
  const cellsById = new Map(report.summary.cells.map((cell) => [cell.cell, cell]));
  const lines = report.linePivots.map((pivot, index) => lineChart(pivot, index, cellsById));
  return { lines, waves: wavesData(report.waves), latency: latencyData(report) };
}

function lineChart(pivot, index, cellsById) {
  const { unit } = findMetric(pivot.metric);
  const series = pivot.columns ? pivot.columnValues : [pivot.column];
  const xScale = chooseAxisScale(pivot.rowValues);
  return {
    id: `line-${index}`,
    title: `${pivot.workload}: ${pivot.metric} against ${pivot.rows}${pivot.columns ? `, one line per ${pivot.columns}` : ''}${sliceText(pivot)}`,
    xTitle: `${axisLabel(pivot.rows)}${xScale === 'log2' ? ', log₂ scale' : ''}`,
    yTitle: `${pivot.metric} median (${unit})`,
    labels: pivot.rowValues.map(formatAxisValue),
    xScale,
    ...(xScale === 'category' ? {} : { xValues: pivot.rowValues }),
    series: series.map((value, j) => ({
      label: pivot.columns ? `${pivot.columns}=${formatAxisValue(value)}` : pivot.column,
      values: pivot.values.map((line) => line[j]),
      // Whiskers: the cell's one interval, the 95% CI of its centre (summary.js), as the summary and the answers.
      intervals: pivot.cellIds.map((line) => {
        const stats = cellsById.get(line[j])?.stats[pivot.metric];
        return stats && stats.ci95_low !== null ? [stats.ci95_low, stats.ci95_high] : null;
      }),
      // The capacity model's value per point (runner/model/), drawn as a dashed line; null where a cell has none.
      model: pivot.cellIds.map((line) => cellsById.get(line[j])?.model?.[pivot.metric] ?? null),
    })),
  };
}

function wavesData(runs) {
  const most = Math.max(0, ...runs.map((run) => run.tasks.length));
  const shown = runs.map((run) => ({
    label: `${run.label} · repetition ${run.repetition}${Number.isFinite(run.wall_ms) ? ` · wall ${Math.round(run.wall_ms)} ms` : ''}`,
    tasks: run.tasks.map(({ task, start_ms: start, end_ms: end, process, thread }) => ({
      task,
      start,
      end,
      group: `process ${process ?? '?'}, thread ${thread ?? '?'}`,
    })),
  }));
  // Room for every task's bar, and for the y title at least.
  return { height: Math.max(300, 90 + most * 20), runs: shown, initial: chooseWavesRun(shown) };
}

// Past 8 cells, one panel per value of an axis (chart-panels.js), on one shared y range so panels compare.
function latencyData(report) {
  // The workload that declares latency percentiles (http).
  const percentilesOf = (cell) => getWorkload(cell.workload)?.latencyPercentiles;
  const cells = report.summary.cells.filter((cell) => percentilesOf(cell) && cell.runs.length > 0);
  const axes = varyingAxes(cells, report.axes, { orAllSet: true }).filter((axis) => axis !== 'workload');
  const percentiles = cells.length ? percentilesOf(cells[0]) : [];
  const { axis, panels, labelOf, colourOf } = splitPanels(cells, axes);
  const seriesOf = (cell) => ({
    label: labelOf(cell),
    colour: colourOf(cell),
    values: percentiles.map(([, column]) => {
      const sample = cell.runs.map((run) => run[column]).filter(Number.isFinite);
      return median(sample);
    }),
  });
  const shown = cells.length
    ? panels.map((panel, index) => ({ id: `latency-${index}`, title: panel.title, series: panel.cells.map(seriesOf) }))
    : [];
  const values = shown.flatMap((panel) => panel.series.flatMap((series) => series.values)).filter((value) => value > 0);
  return {
    labels: percentiles.map(([label]) => label),
    axis,
    colours: new Set(cells.map(colourOf)).size,
    range: values.length ? [Math.min(...values), Math.max(...values)] : null,
    panels: shown,
  };
}

function pivotTitle(pivot) {
  return `${pivot.workload}: ${formatPivotValue(pivot)}${sliceText(pivot)}`;
}

function sliceText(pivot) {
  const slice = Object.entries(pivot.slice)
    .map(([axis, value]) => `${axis}=${formatAxisValue(value)}`)
    .join(', ');
  return slice ? ` (${slice})` : '';
}

function summaryTable(report, workload) {
  const { header, rows } = buildSummaryTable(report, workload);
  const head = header.map((cell) => `<th>${escapeHtml(cell)}</th>`).join('');
  const body = rows.map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`).join('\n');
  return `<h3>${escapeHtml(workload)}</h3><div class="scroll"><table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>`;
}

function wavesPicker({ runs, initial }) {
  const options = runs
    .map(
      (run, index) =>
        `<option value="${index}"${index === initial ? ' selected' : ''}>${escapeHtml(run.label)}</option>`,
    )
    .join('');
  return `<label>Run: <select id="waves-run">${options}</select></label>`;
}

// The advice's badge colours (answers.js ANSWERS_STYLE): settled green, open amber, not measured here grey.
const BADGES = { settled: 'holds', open: 'inconclusive', 'not measured': 'not-measured' };

/** Advice first: per budget a badge, a table of its settings (cheapest first) and the sentence under it. */
function renderAdviceHtml(advice) {
  const tables = advice.tables.map((table) => {
    const badge = `<span class="badge ${BADGES[table.status] ?? 'inconclusive'}">${escapeHtml(table.status)}</span>`;
    const head = `<tr>${table.header.map((cell) => `<th>${escapeHtml(cell)}</th>`).join('')}</tr>`;
    const rows = table.rows
      .map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(String(cell))}</td>`).join('')}</tr>`)
      .join('\n');
    return (
      `<h3>${badge} ${escapeHtml(`${table.budget || 'every cell'} · ${table.workload}`)}</h3>` +
      `<div class="scroll"><table class="advice-table"><thead>${head}</thead><tbody>${rows}</tbody></table></div>` +
      `<p class="advice-words">${escapeHtml(table.words)}</p>`
    );
  });
  const dropped = (advice.race?.dropped ?? []).map(
    (drop) => `<li>race: ${escapeHtml(`${drop.label} stopped after round ${drop.round} (${drop.why})`)}</li>`,
  );
  return (
    `<section id="advice"><h2>Advice</h2>${tables.join('\n')}` +
    `${dropped.length ? `<ul class="answers">${dropped.join('')}</ul>` : ''}` +
    `<p class="intro">${escapeHtml(BOUND_WORDS)} Every row is in advice.csv.</p></section>`
  );
}

function section(id, title, intro, body) {
  if (body.length === 0) return null;
  return `<section id="${id}"><h2>${escapeHtml(title)}</h2><p class="intro">${escapeHtml(intro)}</p><div class="figures">${body.join('\n')}</div></section>`;
}

function figure(caption, content) {
  return `<figure>${caption ? `<figcaption>${escapeHtml(caption)}</figcaption>` : ''}${content}</figure>`;
}

function canvas(id, height) {
  return `<div class="chart" style="height:${height}px"><canvas id="${escapeHtml(id)}"></canvas></div>`;
}

// Every box fits the page or scrolls inside itself: charts shrink to their column, wide tables scroll.
const STYLE = `
body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1200px; padding: 0 24px 48px; color: #111; }
h1 { margin-bottom: 4px; } .meta, .intro { color: #444; margin-top: 4px; }
section { margin-top: 28px; } .figures { display: flex; flex-wrap: wrap; gap: 20px; }
figure { margin: 0; min-width: 0; } figcaption { font-weight: 600; margin-bottom: 6px; }
#scaling figure { flex: 1 1 520px; } #waves figure { flex: 1 1 100%; } #latency figure { flex: 1 1 460px; }
.chart { position: relative; width: 100%; min-width: 0; }
.scroll { overflow-x: auto; max-width: 100%; }
#heatmaps figure { max-width: 100%; overflow-x: auto; }
ul.answers li, p.advice-words { overflow-wrap: anywhere; }
table { border-collapse: collapse; font-size: 13px; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: right; white-space: nowrap; } th { background: #f3f3f3; }
select { font: inherit; margin-bottom: 8px; }
`;
