// Advice as people and files read it: one sentence per budget ("cpus=2: use uv_threadpool_size=2 …"), the rows of
// advice.csv, the race's dropped settings. The decisions are runner/verdicts/advice.js's; this module only words them.
import { adviseCells, formatTimes } from '../verdicts/advice.js';
import { replayRace } from '../rounds/race.js';
import { formatNumber } from './format.js';

export const ADVICE_COLUMNS = [
  'experiment',
  'workload',
  'budget',
  'metric',
  'recommended',
  'best',
  'as_good',
  'eliminated',
  'open',
  'default',
  'default_ratio',
  'default_ci_low',
  'default_ci_high',
  'status',
  'runs_needed',
  'words',
];

/**
 * @param {object} results  readResults(dir)
 * @param {object} summary  summarizeCells(results)
 * @returns {{ answers: object[], rows: object[], race: { dropped: object[] }|null }}
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
  // The answer a race ends on: its survivors compared, as the race compared them; the dropped listed with why.
  const dropped = new Map((race?.dropped ?? []).map((drop) => [drop.cell, drop]));
  const answers = adviseCells(summary.cells, results.axes, config?.recommend, { dropped }).map((answer) => ({
    ...answer,
    words: formatAnswer(answer),
  }));
  return { answers, rows: answers.map((answer) => toRow(experiment, answer)), race: race && { dropped: race.dropped } };
}

function toRow(experiment, answer) {
  const comparison = answer.default?.comparison;
  return {
    experiment,
    workload: answer.workload,
    budget: answer.budget,
    metric: answer.metric,
    recommended: answer.recommended?.label ?? '',
    best: answer.best?.label ?? '',
    as_good: answer.as_good.map((setting) => setting.label).join('; '),
    eliminated: answer.eliminated.map((setting) => setting.label).join('; '),
    open: answer.open.map((setting) => setting.label).join('; '),
    default: answer.default?.label ?? '',
    default_ratio: round(comparison?.ratio),
    default_ci_low: round(comparison?.ci95_low),
    default_ci_high: round(comparison?.ci95_high),
    status: answer.status,
    runs_needed: answer.runs_needed,
    words: answer.words,
  };
}

/** "cpus=2 (pbkdf2, wall_ms): use uv_threadpool_size=2; …; settled." */
export function formatAnswer(answer) {
  const head = `${answer.budget || 'every cell'} (${answer.workload}, ${answer.metric}, ${answer.better} is better)`;
  if (!answer.recommended) return `${head}: no recommendation yet — ${answer.reason ?? describeOpen(answer)}`;
  const lower = answer.better === 'lower';
  // "use" only when settled: an open answer names the setting leading so far.
  const verb = answer.status === 'settled' ? 'use' : 'leading so far, not settled:';
  const parts = [
    `${verb} ${answer.recommended.label} (median ${formatNumber(answer.recommended.median)}, n ${answer.recommended.n})`,
  ];
  if (answer.best && answer.best !== answer.recommended)
    parts.push(
      `as good as the best, ${answer.best.label}, within ${formatNumber(answer.within * 100)}%, with fewer threads and processes`,
    );
  if (answer.as_good.length > 1) parts.push(`as good: ${answer.as_good.map((setting) => setting.label).join(', ')}`);
  if (answer.eliminated.length > 0)
    parts.push(
      `eliminated: ${answer.eliminated.map((setting) => `${setting.label} (${setting.state === 'failed' ? setting.why : `median ${formatNumber(setting.median)}: ${setting.why}`})`).join(', ')}`,
    );
  parts.push(describeDefault(answer.default, lower));
  parts.push(answer.status === 'settled' ? 'settled' : describeOpen(answer));
  return `${head}: ${parts.filter(Boolean).join('; ')}.`;
}

function describeDefault(fallback, lower) {
  if (!fallback) return '';
  if (!fallback.in_matrix) return `the default (${fallback.label}) is not in the matrix`;
  if (fallback.is_recommended) return `the recommendation is the default (${fallback.label})`;
  if (!fallback.comparison) return '';
  return `the default (${fallback.label}, median ${formatNumber(fallback.median)}) is ${formatTimes(fallback.comparison, lower)}`;
}

function describeOpen(answer) {
  if (answer.open.length === 0) return 'open';
  // Medians beside every ratio (a ratio is of geometric means).
  const pairs = answer.open.map((setting) =>
    setting.versus
      ? `${setting.label} (median ${formatNumber(setting.median)}) against the best (${formatTimes(setting.versus.comparison, answer.better === 'lower')})`
      : `${setting.label} (a constraint)`,
  );
  const more =
    answer.runs_needed === null
      ? `a ratio sits on the ±${formatNumber(answer.within * 100)}% boundary: more runs are unlikely to settle it`
      : `about ${answer.runs_needed} runs per setting would probably settle it`;
  return `open: ${pairs.join(', ')}; ${more}`;
}

/** The lines report.md, report.html and the end of a matrix lead with. */
export function formatAdviceLines(advice) {
  const lines = advice.answers.map((answer) => answer.words);
  for (const drop of advice.race?.dropped ?? [])
    lines.push(`race: ${drop.label} dropped after round ${drop.round} (${drop.why})`);
  return lines;
}

function round(value) {
  return Number.isFinite(value) ? Number(value.toPrecision(6)) : null;
}
