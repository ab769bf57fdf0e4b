// The report model → report.md: what ran, the summary per workload, the pivot tables ready to paste,
// outliers, failed runs, and how each number was computed.
import { axisLabel } from '../domain/metrics.js';
import { buildSummaryTable } from './summary-table.js';
import { formatPivotValue, pivotToRecords } from './pivot.js';
import { formatCellValues, formatNumber } from './format.js';
import { OUTLIER_MIN_N, OUTLIER_THRESHOLD } from '../stats/statistics.js';
import { renderAnswersMarkdown } from './answers.js';
import { renderModelMarkdown } from './model-table.js';
import { BOUND_WORDS } from './advice.js';
import { formatP99 } from './capacity.js';
import { BUSY_STREAK } from '../domain/interference.js';
import { CENTRE_TEXT } from './answers.js';

const STATUS_MARKS = { settled: '✔ settled', open: '… open', 'not measured': '✘ not measured here' };

/** Advice first: per budget a table of its settings, cheapest first, and the sentence under it. */
function renderAdviceMarkdown(advice) {
  const lines = ['## Advice', ''];
  for (const table of advice.tables) {
    const cell = (value) => escapeMarkdown(String(value));
    lines.push(
      `### ${cell(table.budget || 'every cell')} · ${cell(table.workload)} · ${STATUS_MARKS[table.status] ?? table.status}`,
      '',
      `| ${table.header.map(cell).join(' | ')} |`,
      `|${table.header.map(() => ' --- ').join('|')}|`,
      ...table.rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
      '',
      escapeMarkdown(table.words),
      '',
    );
  }
  for (const drop of advice.race?.dropped ?? [])
    lines.push(`- race: ${escapeMarkdown(`${drop.label} stopped after round ${drop.round} (${drop.why})`)}`);
  if (advice.race?.dropped?.length) lines.push('');
  lines.push(escapeMarkdown(BOUND_WORDS), '', 'Every row is in [advice.csv](advice.csv).');
  return lines;
}

/** The capacity search's answer (`slo:`): per budget its sentence, each setting's rates and what each showed. */
function renderCapacityMarkdown(capacity) {
  const lines = [`## Capacity within p99 ≤ ${capacity.slo.p99_ms} ms`, ''];
  for (const answer of capacity.answers) {
    lines.push(
      `### ${escapeMarkdown(answer.budget || 'every cell')} · ${escapeMarkdown(answer.workload)} · ${answer.status === 'settled' ? '✔ settled' : '… open'}`,
      '',
      '| setting | shown within (req/s) | shown over (req/s) | runs | rates tried (p99 ms, runs, shown) |',
      '| --- | --- | --- | --- | --- |',
      ...answer.settings.map(
        (setting) =>
          `| ${escapeMarkdown(setting.label)} | ${setting.low ?? '—'} | ${setting.high ?? '—'} | ${setting.runs} | ${setting.rates.map((rate) => `${rate.rate}: ${formatP99(rate)}`).join('; ')} |`,
      ),
      '',
      escapeMarkdown(answer.words),
      '',
    );
  }
  lines.push(
    'Each rate a run of the open loop; a rate is shown within (over) the SLO when the mean log p99 of its runs is below (above) log SLO by more than Student\'s t times its standard error, each end at 2.5% over its repeated looks, so both ends together at 95% (docs/experiments.md, "Capacity at an SLO"). Every row is in [capacity.csv](capacity.csv).',
  );
  return lines;
}

export function renderMarkdown(report) {
  const { info, experiment, counts } = report;
  const lines = [`# ${escapeMarkdown(experiment)}: report`, ''];
  if (info?.config?.description) lines.push(escapeMarkdown(info.config.description), '');
  if (report.advice.tables.length) lines.push(...renderAdviceMarkdown(report.advice), '');
  if (report.capacity) lines.push(...renderCapacityMarkdown(report.capacity), '');
  // The answers first; what ran and where the files are after them.
  // A capacity search compares no cells at one rate: its capacity section is its answer.
  if (!report.capacity) lines.push(...renderAnswersMarkdown(report.verdicts, escapeMarkdown));
  lines.push('## What ran', '', ...formatRun(info, counts, report.disturbed), '');
  lines.push(
    'Files: [summary.csv](summary.csv) (one row per cell), ' +
      `${report.pivots.length ? 'pivot-*.csv (the tables below), ' : ''}[verdicts.csv](verdicts.csv) (the answers), [report.html](report.html) (charts), runs.csv, tasks.csv, run.json.`,
    '',
  );
  lines.push('## Summary', '');
  for (const workload of report.workloads) lines.push(...summaryTable(report, workload), '');
  lines.push(...renderModelMarkdown(report, escapeMarkdown));
  if (report.pivots.length) {
    lines.push('## Pivot tables', '');
    for (const pivot of report.pivots) lines.push(...pivotTable(pivot), '');
  }
  lines.push(
    ...outlierSection(report),
    ...disturbedSection(report),
    ...failureSection(report),
    ...methodSection(report),
  );
  return `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

function formatRun(info, counts, disturbed) {
  const lines = [
    `- Runs: ${counts.measured} measured (ok, not warm-up${disturbed.kept ? '' : ', not disturbed'})` +
      `${counts.failed ? `, ${counts.failed} failed` : ''}${counts.warmups ? `, ${counts.warmups} warm-up` : ''}, of ${counts.total} in runs.csv`,
    `- Disturbed: ${formatDisturbedCount(counts, disturbed)}`,
  ];
  if (!info) return [...lines, '- run.json is missing: axis values and the host come from runs.csv alone'];
  return [...lines, formatBusyWait(info), ...formatHost(info)];
}

function formatBusyWait(info) {
  const waited = info.summary?.busy_waits ?? 0;
  return waited > 0
    ? `- Host busy: after ${BUSY_STREAK} disturbed runs in a row the runner waited ${formatNumber((info.summary.busy_wait_ms ?? 0) / 1000, 3)} s for a quiet host (${waited} time${waited === 1 ? '' : 's'}, \`busy_wait\` ${formatNumber(info.config?.busy_wait ?? 0)} s at most); each answer's table says how many clean runs it rests on`
    : '- Host busy: no wait for a quiet host was needed';
}

// The machine, the engine, when, the seed and the project's revision: what run.json recorded.
function formatHost(info) {
  const host = info.host ?? {};
  const lines = [
    `- Host: ${escapeMarkdown(host.cpu_model ?? 'unknown CPU')}, ${host.cpus ?? '?'} CPUs, kernel ${escapeMarkdown(host.kernel ?? '?')}`,
  ];
  if (info.docker?.version)
    lines.push(
      `- Docker: ${escapeMarkdown(info.docker.version.Version ?? '')} (${escapeMarkdown(info.docker.engine ?? '')})`,
    );
  lines.push(
    `- Started ${escapeMarkdown(info.started_at ?? '?')}, finished ${escapeMarkdown(info.finished_at ?? 'not recorded')}`,
  );
  if (info.seed !== undefined) lines.push(`- Run order seed: ${escapeMarkdown(String(info.seed))}`);
  if (info.project?.git_revision)
    lines.push(
      `- Project revision: ${escapeMarkdown(info.project.git_revision)}${info.project.git_dirty ? ' (with uncommitted changes)' : ''}`,
    );
  return lines;
}

function formatDisturbedCount(counts, { above, kept }) {
  const rule =
    above === null ? "above the experiment's `disturbed_above`" : `interference above ${formatNumber(above)}%`;
  if (counts.disturbed === 0) return `none (${rule})`;
  const fate = kept
    ? 'kept in the statistics (--keep-disturbed)'
    : `left out of the statistics, ${counts.reruns} re-run`;
  return `${counts.disturbed} run(s) (${rule}): ${fate}; see [Disturbed runs](#disturbed-runs)`;
}

function summaryTable(report, workload) {
  const { header, rows } = buildSummaryTable(report, workload);
  return [`### ${escapeMarkdown(workload)}`, '', ...table(header, rows)];
}

function pivotTable(pivot) {
  const { header, body } = pivotToRecords(pivot);
  // Markdown would need the CSV corner's backslash escaped; arrows read better anyway.
  header[0] = pivot.columns ? `${pivot.rows} ↓ / ${pivot.columns} →` : pivot.rows;
  const slice = Object.entries(pivot.slice)
    .map(([axis, value]) => `${axis}=${value ?? 'unset'}`)
    .join(', ');
  const title =
    `${pivot.workload}: ${formatPivotValue(pivot)}, ` +
    `${axisLabel(pivot.rows)} down${pivot.columns ? `, ${axisLabel(pivot.columns)} across` : ''}${slice ? `; ${slice}` : ''}`;
  return [
    `### ${escapeMarkdown(title)}`,
    '',
    `[${pivot.name}.csv](${pivot.name}.csv)`,
    '',
    ...table(
      header,
      body.map(([label, ...values]) => [label, ...values.map((value) => formatNumber(value))]),
    ),
  ];
}

function outlierSection(report) {
  const { outliers } = report.summary;
  if (outliers.length === 0) return [];
  return [
    '## Outliers',
    '',
    `Runs whose modified Z-score (0.6745 · (x − median) / MAD) is beyond ±${OUTLIER_THRESHOLD}, in cells with at least ${OUTLIER_MIN_N} measured runs. They are kept in every statistic; look at what else ran on the machine then.`,
    '',
    ...table(
      ['cell', 'repetition', 'metric', 'value', 'modified Z'],
      outliers.map((outlier) => [
        `${outlier.cell} (${formatCellValues(outlier.values, report.axes)})`,
        outlier.repetition,
        outlier.metric,
        formatNumber(outlier.value),
        formatNumber(outlier.score, 3),
      ]),
    ),
    '',
  ];
}

function disturbedSection(report) {
  const { runs, kept } = report.disturbed;
  if (runs.length === 0) return [];
  return [
    '## Disturbed runs',
    '',
    `While these runs were measured, the rest of the host used more of the CPU they were allowed than \`disturbed_above\` lets pass. ${kept ? 'They count in every statistic (--keep-disturbed).' : 'They are left out of every statistic and their cell got a run in their place, up to `max_reruns` a cell.'}`,
    '',
    ...table(
      ['cell', 'repetition', 'interference %', 'other CPU ms', 're-run as'],
      runs.map(({ run, rerun }) => [
        `${run.cell} (${formatCellValues(run, report.axes)})`,
        run.repetition,
        formatNumber(run.interference_pct),
        formatNumber(run.host_other_cpu_ms),
        rerun ? `repetition ${rerun.repetition}` : '',
      ]),
    ),
    '',
  ];
}

function failureSection(report) {
  if (report.failures.length === 0) return [];
  return [
    '## Runs not ok',
    '',
    'Left out of every statistic; counted per cell in `failed`.',
    '',
    ...table(
      ['cell', 'repetition', 'warm-up', 'status', 'error'],
      report.failures.map((run) => [
        `${run.cell} (${formatCellValues(run, report.axes)})`,
        run.repetition,
        run.warmup ? 'yes' : '',
        run.status,
        run.error ?? '',
      ]),
    ),
    '',
  ];
}

function methodSection(report) {
  const baselines = report.baselines.map(
    ({ workload, cell, text, cpuCapacity }) =>
      `  - ${escapeMarkdown(workload)}: ${cell ? `${cell} (${escapeMarkdown(text)}), CPU capacity ${formatNumber(cpuCapacity)}` : 'none'}`,
  );
  return [
    '## How these numbers were computed',
    '',
    `- Statistics use runs with status \`ok\` that are not warm-ups. median, mean, min, max; stdev is the sample standard deviation (n − 1); cv = stdev / mean. ${CENTRE_TEXT} With n = 1 there is no stdev, cv or CI.`,
    `- Outliers: |modified Z-score| > ${OUTLIER_THRESHOLD}, looked for in cells with at least ${OUTLIER_MIN_N} measured runs (with fewer, the MAD rests on one or two deviations and flags chance); counted in <metric>_outliers, never removed.`,
    "- speedup = baseline median / cell median for times (wall_ms, latency), cell median / baseline median for requests_per_sec: above 1 is better. It uses the workload's first primary metric (wall_ms; requests_per_sec for http).",
    "- efficiency = speedup / (cell CPU capacity / baseline CPU capacity). CPU capacity is the smallest of the CPU quota (`cpus`), the number of CPUs in `cpuset` and the host's CPUs: the CPU-seconds per second the container may use. Threads, workers and processes add no capacity. Between cells of equal capacity it would only repeat the speedup, so it is left empty there.",
    '- Baseline cells:',
    ...baselines,
    ...report.notes.map((note) => `- Note: ${escapeMarkdown(note)}`),
    '',
  ];
}

function table(header, rows) {
  const line = (cells) => `| ${cells.map((cell) => escapeMarkdown(String(cell ?? ''))).join(' | ')} |`;
  return [line(header), `|${header.map(() => ' --- ').join('|')}|`, ...rows.map(line)];
}

/** Text as Markdown shows it literally: no table breaks, no HTML, no links, on one line. */
export function escapeMarkdown(text) {
  return String(text)
    .replace(/\r?\n|\r/g, ' ')
    .replace(/[\\`*[\]<>|]/g, '\\$&');
}
