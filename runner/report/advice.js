// Advice as people and files read it: per budget a table (each setting, its runs, its median, its bound, its state)
// and one sentence under it ("cpus=2: use uv_threadpool_size=2 — at most 3.1% slower than the best tried (95%)"),
// the rows of advice.csv, the race's dropped settings. The decisions are runner/verdicts/advice.js's; this module
// only words them, and every direction word it prints agrees with the number beside it.
import { adviseCells } from '../verdicts/advice.js';
import { describeRatio } from './ratio-words.js';
import { raceRule, replayRace } from '../rounds/race.js';
import { formatNumber } from './format.js';
import { describeProduction, productionShape } from '../domain/axes.js';

export const ADVICE_COLUMNS = [
  'experiment',
  'workload',
  'budget',
  'metric',
  'recommended',
  'bound_pct',
  'status',
  'best',
  'as_good',
  'cheaper',
  'eliminated',
  'rounds_needed',
  'clean_runs',
  'counted',
  'default',
  'default_ratio',
  'default_ci_low',
  'default_ci_high',
  'words',
];

/** What the bound is, said once wherever the advice is shown (report.md, report.html, the terminal). */
export const BOUND_WORDS =
  'Bound: how much slower (or lower, for a rate) a setting can be than the best of those tried, at 95% for all ' +
  "settings at once (Hsu's multiple comparisons with the best, on the logs of the runs of the rounds both settings " +
  'ran; docs/statistics.md). A budget is settled when the cheapest setting within the margin is found.';

/**
 * @param {object} results  readResults(dir)
 * @param {object} summary  summarizeCells(results)
 * @returns {{ answers: object[], rows: object[], tables: object[], race: { dropped: object[] }|null }}
 */
export function buildAdvice(results, summary) {
  const config = results.info?.config;
  const experiment = results.info?.experiment ?? results.runs[0]?.experiment ?? '';
  const race =
    config?.search === 'race' && results.info?.cells
      ? replayRace(
          { experiment: config, cells: results.info.cells, keepDisturbed: results.keepDisturbed },
          results.runs,
        )
      : null;
  // No more rounds come to a folder without adaptive rounds: the rounds "still needed" are then a what-if.
  const cap = config?.adaptive ? config.adaptive.max_repetitions : null;
  const rule = config?.search === 'race' ? raceRule(config) : undefined;
  const paramsOf = new Map((results.info?.cells ?? []).map((cell) => [cell.cell, cell.params]));
  const answers = adviseCells(summary.cells, results.axes, config?.recommend, { cap, rule }).map((answer) => {
    const shape = productionShape(answer.workload, paramsOf.get(answer.recommended?.cell.cell) ?? {});
    const withShape = { ...answer, shape };
    return { ...withShape, words: formatAnswer(withShape) };
  });
  return {
    answers,
    rows: answers.map((answer) => toRow(experiment, answer)),
    tables: answers.map(buildAdviceTable),
    race: race && { dropped: race.dropped },
  };
}

function toRow(experiment, answer) {
  const comparison = answer.default?.comparison;
  const labels = (settings) => settings.map((setting) => setting.label).join('; ');
  return {
    experiment,
    workload: answer.workload,
    budget: answer.budget,
    metric: answer.metric,
    recommended: answer.recommended?.label ?? '',
    bound_pct: round(answer.bound_pct, 4),
    status: answer.status,
    best: answer.best?.label ?? '',
    as_good: labels(answer.as_good),
    cheaper: answer.cheaper.map((setting) => `${setting.label} (${describeState(setting, answer)})`).join('; '),
    eliminated: labels(answer.eliminated),
    rounds_needed: answer.rounds_needed ?? null,
    clean_runs: answer.clean_runs,
    counted: answer.counted,
    default: answer.default?.label ?? '',
    default_ratio: round(comparison?.ratio),
    default_ci_low: round(comparison?.ci95_low),
    default_ci_high: round(comparison?.ci95_high),
    words: answer.words,
  };
}

/**
 * The answer in one sentence. Settled: "cpus=2 (pbkdf2, wall_ms, lower is better): use uv_threadpool_size=2 — at
 * most 3.1% slower than the best tried (95%); settled …". Open: "… leading: … — at most 7.4% slower …; open: …".
 */
export function formatAnswer(answer) {
  const head = `${answer.budget || 'every cell'} (${answer.workload}, ${answer.metric}, ${answer.better} is better)`;
  if (!answer.recommended) return `${head}: no recommendation — ${answer.reason}.`;
  const { recommended } = answer;
  const verb = answer.status === 'settled' ? 'use' : 'leading, not settled:';
  const parts = [
    `${verb} ${recommended.label} — ${describeBound(recommended.bound_pct, answer)}, on ${recommended.n} run${recommended.n === 1 ? '' : 's'}`,
  ];
  for (const setting of answer.cheaper) parts.push(`${setting.label}: ${describeState(setting, answer)}`);
  // Settings out before the comparison (out of memory, a broken constraint), whatever they cost.
  for (const setting of answer.settings.filter((each) => each.outside))
    parts.push(`${setting.label}: ${setting.reason}`);
  parts.push(describeDefault(answer));
  parts.push(answer.status === 'settled' ? 'settled' : describeOpen(answer));
  parts.push(describeDeploy(answer));
  if (answer.counted === 'all')
    parts.push(`the host stayed busy: this answer counts its ${answer.clean_runs} runs, disturbed ones too`);
  return `${head}: ${parts.filter(Boolean).join('; ')}.`;
}

/**
 * What a person deploys to get the recommendation (docs/own-code.md, "What each setting means in production"), in
 * short: the first clause of each knob's production words; "no production twin" where the lab's shape has none.
 */
function describeDeploy(answer) {
  const values = answer.recommended.cell.values ?? {};
  const phrases = answer.knobs
    .map((axis) => describeProduction(axis, values[axis], answer.shape ?? 'tasks'))
    .filter(Boolean)
    .map(({ words, twin }) => (twin ? words.split(/ \(|: /)[0] : 'no production twin for this setting'));
  return phrases.length ? `to deploy it: ${phrases.join('; ')} (docs/own-code.md)` : '';
}

function describeBound(boundPct, answer) {
  const worse = answer.better === 'lower' ? 'slower' : 'lower';
  if (boundPct === null || boundPct === undefined)
    return 'no bound yet (fewer than 2 rounds shared with another setting)';
  // A bound of 0: no other setting can be better, at 95% — it is the best of those tried.
  if (boundPct === 0) return 'the best of those tried (95%)';
  return `at most ${formatPercentage(boundPct)} ${worse} than the best tried (95%)`;
}

/** A setting's state in words, beside the number that decided it. */
function describeState(setting, answer) {
  if (setting.state === 'failed') return setting.reason;
  const bound = setting.bound_pct === null ? null : describeBound(setting.bound_pct, answer);
  const margin = `${formatNumber(answer.within * 100)}%`;
  switch (setting.state) {
    case 'eliminated':
      return setting.reason;
    case 'futile':
      return `${bound ?? 'no bound yet'}: ${setting.reason}`;
    case 'candidate':
      return `${bound ?? 'no bound yet'}: not yet within ${margin}`;
    case 'not needed':
      return `${bound ?? 'no bound'}: ${setting.reason}`;
    default:
      return bound ?? setting.state;
  }
}

function describeDefault(answer) {
  const fallback = answer.default;
  if (!fallback) return '';
  if (!fallback.in_matrix) return `Node's default (${fallback.label}) is not in the matrix`;
  if (fallback.is_recommended) return `the recommendation is Node's default (${fallback.label})`;
  if (!fallback.comparison) return '';
  return `Node's default (${fallback.label}) is ${describeRatio(fallback.comparison, { lowerIsBetter: fallback.lowerIsBetter, than: 'the recommendation' })}`;
}

function describeOpen(answer) {
  const margin = `${formatNumber(answer.within * 100)}%`;
  if (answer.recommended.bound_pct === null) return `open: more rounds are needed before any bound`;
  if (answer.rounds_needed)
    return `open: about ${answer.rounds_needed} more round${answer.rounds_needed === 1 ? '' : 's'} would probably bring it under ${margin}`;
  if (answer.rounds_left !== null)
    return answer.rounds_left === 0
      ? `open: the cap of rounds is reached; at this spread ${margin} is out of reach`
      : `open: the ${answer.rounds_left} round${answer.rounds_left === 1 ? '' : 's'} left under the cap will probably not bring it under ${margin}`;
  return `open: at this spread, even ${WHAT_IF} more rounds would probably not bring it under ${margin}`;
}

const WHAT_IF = 20;

/**
 * The answer as a table: each setting, cheapest first, with its runs, its median, its bound and its state — what the
 * terminal, report.md and report.html show above the sentence.
 * @returns {{ budget: string, workload: string, metric: string, status: string, header: string[],
 *   rows: string[][], words: string }}
 */
export function buildAdviceTable(answer) {
  const worse = answer.better === 'lower' ? 'slower' : 'lower';
  const header = ['setting', 'runs', `median ${answer.metric}`, `at most ${worse} than the best (95%)`, 'state'];
  const rows = answer.settings.map((setting) => [
    setting.label,
    String(setting.n ?? 0),
    formatNumber(setting.median),
    setting.bound_pct === null || setting.bound_pct === undefined ? '—' : formatPercentage(setting.bound_pct),
    formatSettingState(setting, answer),
  ]);
  return {
    budget: answer.budget,
    workload: answer.workload,
    metric: answer.metric,
    status: answer.status,
    header,
    rows,
    words: answer.words ?? formatAnswer(answer),
  };
}

function formatSettingState(setting, answer) {
  if (setting === answer.recommended) return answer.status === 'settled' ? 'use this (settled)' : 'leading (open)';
  if (setting.state === 'failed') return 'failed';
  return setting.state;
}

/** The lines of the terminal and of `advise`: a heading, the table, and the sentence, per budget. */
export function formatAdviceText(advice) {
  const lines = [];
  for (const table of advice.tables ?? []) {
    lines.push(`${table.budget || 'every cell'} · ${table.workload} · ${table.metric}: ${table.status}`);
    const widths = table.header.map((_, column) =>
      Math.max(...[table.header, ...table.rows].map((row) => String(row[column]).length)),
    );
    const format = (row) =>
      row
        .map((cell, column) => String(cell).padEnd(widths[column]))
        .join('  ')
        .trimEnd();
    lines.push(`  ${format(table.header)}`, ...table.rows.map((row) => `  ${format(row)}`));
    lines.push(`  ${table.words}`, '');
  }
  // Which settings a race stopped early is in the table (their runs and state); report.md lists when and why.
  return lines;
}

function formatPercentage(value) {
  if (value === 0) return '0%';
  return `${value < 0.1 ? '<0.1' : formatNumber(value, value < 10 ? 2 : 3)}%`;
}

function round(value, digits = 6) {
  return Number.isFinite(value) ? Number(value.toPrecision(digits)) : null;
}
