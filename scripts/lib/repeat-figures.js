// What `npm run bench:repeat` prints, from folders of the same experiments file run several times on one host: per
// budget the answer of each invocation, how often their picks agree, and whether each pick is within `within` of the
// best on the pooled runs of all of them. The bound "at most U% slower than the best tried (95%)" holds within one
// invocation; this is what it is worth across invocations (docs/statistics.md, the bound's scope).
import { LabError } from '../../runner/errors.js';
import { readResults } from '../../runner/results/read-results.js';
import { buildAdvice } from '../../runner/report/advice.js';
import { summarizeCells } from '../../runner/report/summary.js';
import { adviseCells } from '../../runner/verdicts/advice.js';
import { raceRule } from '../../runner/rounds/race.js';

/**
 * @param {string[]} dirs  results folders of one experiment, each one invocation
 * @returns {{ folders: string[], budgets: object[] }}  per budget: key, the answers of each folder (status,
 *   recommended, bound_pct), how many agree with the most common pick, and per distinct pick its gap to the pooled
 *   best (estimate and bound)
 */
export function compareInvocations(dirs) {
  const folders = dirs.map((dir) => readResults(dir));
  const experiments = new Set(folders.map((results) => results.info?.experiment));
  if (experiments.size !== 1)
    throw new LabError(
      'ERR_USAGE',
      `the folders hold different experiments (${[...experiments].join(', ')}): compare one at a time`,
      {
        hint: 'give --folders the invocations of one experiment',
      },
    );
  const answersOf = folders.map((results) => buildAdvice(results, summarizeCells(results)).answers);
  const pooled = advisePooled(folders);
  const keyOf = (answer) => `${answer.budget} · ${answer.workload} · ${answer.metric}`;
  const budgets = pooled.map((reference) => {
    const key = keyOf(reference);
    const answers = answersOf.map((list) => describePick(list.find((answer) => keyOf(answer) === key)));
    const counted = answers.filter((answer) => answer.recommended !== null);
    const tally = new Map();
    for (const { recommended } of counted) tally.set(recommended, (tally.get(recommended) ?? 0) + 1);
    const [mode, agree] = [...tally.entries()].reduce((top, entry) => (entry[1] > top[1] ? entry : top), [null, 0]);
    const picks = [...tally.keys()].map((label) => judgeAgainstPooled(label, reference));
    return { key, within: reference.within, better: reference.better, answers, agree, mode, picks };
  });
  return { folders: dirs, budgets };
}

function describePick(answer) {
  if (!answer) return { status: 'missing', recommended: null, bound_pct: null };
  return { status: answer.status, recommended: answer.recommended?.label ?? null, bound_pct: answer.bound_pct };
}

/**
 * The advice on the runs of every folder at once: each invocation's rounds stay blocks of their own (an invocation is
 * a block of time on the host, and its rounds are compared within it), the settings are the same cells.
 */
export function advisePooled(folders) {
  const [first] = folders;
  const runs = folders.flatMap((results, index) => results.runs.map((run) => relabel(run, index)));
  const pooled = { ...first, runs, keepDisturbed: first.keepDisturbed };
  const config = first.info?.config;
  const rule = config?.search === 'race' ? raceRule(config) : undefined;
  return adviseCells(summarizeCells(pooled).cells, first.axes, config?.recommend, { cap: null, rule });
}

// Round r of invocation i becomes round i·1000 + r, so no two invocations share a block.
function relabel(run, index) {
  const shift = (round) => (Number.isFinite(round) ? (index + 1) * 1000 + round : round);
  return { ...run, repetition: shift(run.repetition), rerun_of: shift(run.rerun_of) };
}

/** A pick against the pooled best: its estimated gap (the point estimate) and the pooled bound on it. */
function judgeAgainstPooled(label, reference) {
  const setting = reference.settings.find((each) => each.label === label);
  const best = reference.best;
  if (!setting || !best || !Number.isFinite(setting.estimate) || !Number.isFinite(best.estimate))
    return { label, gap_pct: null, bound_pct: null, within: null };
  // The estimates are logs with the sign the bound compares by (−log for a rate): their difference is the gap.
  const gap = 100 * Math.expm1(setting.estimate - best.estimate);
  return { label, gap_pct: gap, bound_pct: setting.bound_pct, within: gap <= 100 * reference.within };
}

/** The figures as lines for the terminal (and docs/bench-repeat.md's table). */
export function formatInvocations({ folders, budgets }) {
  const lines = [
    `${folders.length} invocations of one experiments file: ${folders.join(', ')}`,
    '',
    "| budget | each invocation's answer | picks agree | each pick on the pooled runs |",
    '| --- | --- | --- | --- |',
  ];
  for (const budget of budgets) {
    const answers = budget.answers
      .map((answer) =>
        answer.recommended === null
          ? answer.status
          : `${answer.recommended} (${answer.status}${answer.bound_pct === null ? '' : `, at most ${formatPct(answer.bound_pct)}`})`,
      )
      .join('; ');
    const agree = `${budget.agree} of ${budget.answers.length}`;
    const picks = budget.picks
      .map((pick) =>
        pick.gap_pct === null
          ? `${pick.label}: no pooled estimate`
          : `${pick.label}: ${formatSigned(pick.gap_pct)} from the best (bound ${formatPct(pick.bound_pct)}), ${pick.within ? 'within' : 'not within'} ${formatPct(100 * budget.within)}`,
      )
      .join('; ');
    lines.push(`| ${budget.key} | ${answers} | ${agree} | ${picks || '—'} |`);
  }
  const judged = budgets.flatMap((budget) => budget.picks).filter((pick) => pick.within !== null);
  lines.push(
    '',
    `Picks within the margin of the best on the pooled runs: ${judged.filter((pick) => pick.within).length} of ${judged.length}. ` +
      `Budgets whose picks all agree: ${budgets.filter((budget) => budget.agree === budget.answers.length).length} of ${budgets.length}.`,
  );
  return lines;
}

function formatPct(value) {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return `${Number(value.toPrecision(value < 10 ? 2 : 3))}%`;
}

function formatSigned(value) {
  return `${value < 0 ? '−' : '+'}${formatPct(Math.abs(value))}`;
}
