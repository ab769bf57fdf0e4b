// Advice as people and files read it: per budget a table (each setting, its runs, its median, its bound, its state)
// and one sentence under it ("cpus=2: use uv_threadpool_size=2 — at most 3.1% slower than the best tried (95%)"),
// the rows of advice.csv, the race's dropped settings. The decisions are runner/verdicts/advice.js's; this module
// only words them, and every direction word it prints agrees with the number beside it.
import { adviseCells, formatCpus } from '../verdicts/advice.js';
import { describeRatio } from './ratio-words.js';
import { raceRule, replayRace } from '../rounds/race.js';
import { formatNumber } from './format.js';
import { findProductionTwin, productionShape } from '../domain/axes.js';
import { isSet } from '../cells/cell.js';
import { DEFAULT_BOUND_RULE } from '../verdicts/choose-setting.js';

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
  'action',
  'bound_ratio',
  'cpus_asked',
  'cpus_given',
  'words',
];

/** What the bound is, said once wherever the advice is shown (report.md, report.html, the terminal). */
export const BOUND_WORDS =
  'Bound: how much slower a setting can be than the best of those tried (for a rate: how much higher the best can ' +
  "be), at 95% for all settings at once (Hsu's multiple comparisons with the best, on the logs of the runs of the " +
  'rounds both settings ran; docs/statistics.md). It holds within this invocation on this host: another invocation, ' +
  'or another host, may order settings a few per cent apart otherwise (npm run bench:repeat measures how often). A ' +
  'budget is settled when the cheapest setting in production (fewest processes, then measured memory, then the ' +
  "setting the service runs today) within the margin is found; today's setting within the margin is kept.";

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
    // The experiment's `production:` (where production sets each knob): an axis it does not name was added by hand.
    const withShape = { ...answer, shape, production: config?.production };
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
    action: answer.status === 'settled' ? (answer.recommended.today ? 'keep' : 'change') : '',
    bound_ratio: Number.isFinite(answer.bound_pct) ? round(1 + answer.bound_pct / 100, 4) : null,
    cpus_asked: round(answer.delivery?.cpus, 3),
    cpus_given: round(answer.delivery?.got, 3),
    words: answer.words,
  };
}

/**
 * The answer in one sentence. Settled on the setting the service runs today: "cpus=2 (pbkdf2, wall_ms, lower is
 * better): keep uv_threadpool_size=4 (Node's default) — at most 3.1% slower than the best tried (95%) …"; settled on
 * another: "… use uv_threadpool_size=2 — at most 3.1% slower …; Node's default (uv_threadpool_size=4): …"; open:
 * "… leading, not settled: … — at most 7.4% slower …; open: …"; a budget the host did not give: "not measured here"
 * (with why: the rest of the host took its CPUs, or it cannot give the server and the load generator apart). A
 * recommendation with a knob production has no twin of says so right after it (describeNoTwin).
 */
export function formatAnswer(answer) {
  const head = `${answer.budget || 'every cell'} (${answer.workload}, ${answer.metric}, ${answer.better} is better)`;
  if (answer.status === 'not measured') return describeNotMeasured(head, answer);
  if (!answer.recommended) return `${head}: no recommendation — ${answer.reason}.`;
  const { recommended } = answer;
  const keep = answer.status === 'settled' && recommended.today;
  const verb = keep ? 'keep' : answer.status === 'settled' ? 'use' : 'leading, not settled:';
  const named = keep ? `${recommended.label} (${formatToday(answer)})` : recommended.label;
  const parts = [
    `${verb} ${named} — ${describeBound(recommended.bound_pct, answer)}, on ${recommended.n} run${recommended.n === 1 ? '' : 's'}`,
    keep ? '' : describeNoTwin(answer),
  ];
  // Today's setting has a clause of its own (describeDefault), wherever the cost order puts it.
  for (const setting of answer.cheaper.filter((each) => !each.today))
    parts.push(`${setting.label}: ${describeState(setting, answer)}`);
  // Settings out before the comparison (out of memory, a broken constraint), whatever they cost.
  for (const setting of answer.settings.filter((each) => each.outside))
    parts.push(`${setting.label}: ${setting.reason}`);
  parts.push(describeDefault(answer));
  parts.push(answer.status === 'settled' ? 'settled' : describeOpen(answer));
  if (!keep) parts.push(describeDeploy(answer));
  const kept = answer.counted === 'all' ? describeKept(answer) : '';
  // A budget the host gave less than it allows is said first: what follows answers for fewer CPUs.
  if (answer.delivery?.short && /though the host/.test(kept)) parts.unshift(kept);
  else parts.push(kept);
  return `${head}: ${parts.filter(Boolean).join('; ')}.`;
}

// A budget not measured here: why (the host took its CPUs, or it cannot give the server and the load generator apart),
// and what would answer it.
function describeNotMeasured(head, answer) {
  if (answer.delivery?.reason === 'loader')
    return `${head}: not measured here — ${answer.reason}, so no setting is recommended and no bound given for this budget; to answer it, run it on a host with a CPU to spare beyond the budget, or ask for the server with the load generator beside it: loader: {cpuset: none} (docs/http.md#the-load-generators-cpus).`;
  return `${head}: ${answer.reason}, so no setting is recommended and no bound given for this budget; measure it again on a quieter host (docs/report.md#which-runs-count).`;
}

// --keep-disturbed counted every ok run: said, with the CPUs the host gave them when it gave less than the budget.
function describeKept(answer) {
  const counted = `this answer counts its ${answer.clean_runs} runs, disturbed ones too (--keep-disturbed)`;
  const { cpus, got, short } = answer.delivery ?? {};
  if (!short || got === null || cpus === null) return counted;
  return `${counted}, though the host gave them about ${formatCpus(got)} of ${formatCpus(cpus, { unit: false })}: what follows answers for fewer CPUs than the budget`;
}

// "Node's default", or the setting the file marks as the service's own (`recommend.default`).
function formatToday(answer) {
  return answer.default?.source === 'recommend.default' ? "the service's setting today" : "Node's default";
}

/**
 * What production has of each knob of the recommendation (domain/axes.js findProductionTwin): the production words
 * and whether it has a twin — none where the lab's shape has none (your app in worker threads), or where the axis was
 * added by hand to a file that records where production sets its knobs (`production:`, written by init).
 */
function listProduction(answer) {
  const values = answer.recommended.cell.values ?? {};
  return answer.knobs
    .filter((axis) => isSet(values[axis]))
    .map((axis) => ({
      axis,
      value: values[axis],
      ...findProductionTwin(axis, values[axis], answer.shape ?? 'tasks', answer.production),
    }))
    .filter((knob) => knob.words !== undefined);
}

/**
 * The recommendation has a knob with no production twin: said plainly, beside it, so that nobody deploys a setting
 * production cannot run ("production cannot run this setting as measured: workers has no production twin"); the
 * deploy words say why (added by hand, or the lab's shape).
 */
function describeNoTwin(answer) {
  const missing = listProduction(answer).filter((knob) => !knob.twin);
  if (missing.length === 0) return '';
  const axes = missing.map((knob) => knob.axis);
  return `production cannot run this setting as measured: ${axes.join(' and ')} ${axes.length === 1 ? 'has' : 'have'} no production twin`;
}

/**
 * What a person deploys to get the recommendation (docs/own-code.md, "What each setting means in production"), in
 * short: the first clause of each knob's production words; a knob without a twin as describeNoTwin names it ("added
 * by hand: no production twin in this service", or "no production twin").
 */
function describeDeploy(answer) {
  const phrases = listProduction(answer).map((knob) =>
    knob.twin
      ? knob.words.split(/ \(|: /)[0]
      : `${knob.axis}=${knob.value}: ${knob.byHand ? 'added by hand: no production twin in this service' : 'no production twin'}`,
  );
  return phrases.length ? `to deploy it: ${phrases.join('; ')} (docs/own-code.md)` : '';
}

/**
 * A bound as words that mean what they say. For a time: "at most 4.4% slower than the best tried (95%)" — a setting
 * may take any multiple of the best's time. For a rate, where "more than 100% lower" is impossible: how much higher
 * the best tried can be, "the best tried is at most 4.9% higher (95%)", and from 100% on as a ratio, "the best tried
 * is at most 2.45× this (95%)".
 */
export function describeBound(boundPct, answer) {
  if (boundPct === null || boundPct === undefined)
    return `no bound yet (fewer than ${DEFAULT_BOUND_RULE.from} rounds shared with some other setting: the bound's first look)`;
  // A bound of 0: no other setting can be better, at 95% — it is the best of those tried.
  if (boundPct === 0) return 'the best of those tried (95%)';
  // A latency percentile is said as what it is: "p99 at most 12% above the best tried".
  const percentile = /^latency_(p\d+)_ms$/.exec(answer.metric ?? '')?.[1];
  if (answer.better === 'lower' && percentile)
    return `${percentile} at most ${formatBoundValue(boundPct, answer)} above the best tried (95%)`;
  if (answer.better === 'lower')
    return `at most ${formatBoundValue(boundPct, answer)} slower than the best tried (95%)`;
  return boundPct < 100
    ? `the best tried is at most ${formatBoundValue(boundPct, answer)} higher (95%)`
    : `the best tried is at most ${formatBoundValue(boundPct, answer)} this (95%)`;
}

/** A bound as the tables print it: a percentage, or for a rate from 100% on the ratio ("2.45×"). */
export function formatBoundValue(boundPct, answer) {
  if (boundPct === null || boundPct === undefined) return '—';
  if (answer.better !== 'lower' && boundPct >= 100) return `${formatNumber(1 + boundPct / 100, 3)}×`;
  return formatPercentage(boundPct);
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

/**
 * The setting the service runs today against the answer: kept, said once; otherwise why the answer is another — it
 * is not shown within the margin (its bound, or confidently worse), or the recommendation costs less in production
 * (fewer processes, less memory) — and the two compared, in the one vocabulary of ratios (report/ratio-words.js).
 */
function describeDefault(answer) {
  const fallback = answer.default;
  if (!fallback) return '';
  const name = `${answer.default.source === 'recommend.default' ? "the service's setting today" : "Node's default"} (${fallback.label})`;
  if (!fallback.in_matrix) return `${capitalize(name)} is not in the matrix`;
  if (fallback.is_recommended) return answer.status === 'settled' ? '' : `the leader is ${name}`;
  const today = answer.settings.find((setting) => setting.today);
  if (!today || !fallback.comparison) return `${capitalize(name)} has no run that counts`;
  const against = describeRatio(fallback.comparison, {
    lowerIsBetter: fallback.lowerIsBetter,
    than: 'the recommendation',
    margin: answer.within,
  });
  const saving = describeSaving(answer.recommended, today);
  const own = describeTodayState(today, answer);
  return `${capitalize(name)}: ${own}${saving ? `; the recommendation ${saving}` : ''}; it is ${against}`;
}

// Why today's setting is not the answer, in its own words: out, confidently worse, or its bound against the margin.
function describeTodayState(today, answer) {
  if (today.state === 'failed' || today.outside || today.state === 'eliminated') return today.reason;
  const bound = describeBound(today.bound_pct, answer);
  if (today.bound_pct === null || today.bound_pct === undefined) return bound;
  const margin = `${formatNumber(answer.within * 100)}%`;
  return today.bound_pct <= 100 * answer.within
    ? `${bound}, within ${margin} too`
    : `${bound}: not shown within ${margin}`;
}

/** What the recommendation saves against today's setting in production: processes, memory in MiB. */
function describeSaving(recommended, today) {
  const saved = [];
  const processes = (today.processes ?? 1) - (recommended.processes ?? 1);
  if (processes > 0) saved.push(`${processes} process${processes === 1 ? '' : 'es'}`);
  if (recommended.cost < today.cost && Number.isFinite(today.memory) && Number.isFinite(recommended.memory)) {
    const mib = today.memory - recommended.memory;
    if (mib > 0) saved.push(`about ${formatNumber(mib, 2)} MiB of peak memory`);
  }
  return saved.length ? `saves ${saved.join(' and ')}` : '';
}

function capitalize(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
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
  const bound =
    answer.better === 'lower' ? 'at most slower than the best (95%)' : 'best at most this much higher (95%)';
  const header = ['setting', 'runs', `median ${answer.metric}`, bound, 'state'];
  const rows = answer.settings.map((setting) => [
    setting.label,
    String(setting.n ?? 0),
    formatNumber(setting.median),
    formatBoundValue(setting.bound_pct, answer),
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
  if (setting === answer.recommended) {
    if (answer.status !== 'settled') return 'leading (open)';
    return setting.today ? 'keep this (settled)' : 'use this (settled)';
  }
  if (setting.state === 'failed') return 'failed';
  if (setting.state === 'not measured') return `not measured: ${setting.reason}`;
  if (setting.state === 'measured') return 'measured, waits for the others';
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
