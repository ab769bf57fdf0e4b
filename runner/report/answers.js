// Verdicts → the "Answers" that open report.md and report.html, and the short block `npm run matrix` and
// `npm run claims` print. Words only; the numbers come from verdicts.js.
import { DEFAULT_COMPARISON, METHODS } from '../stats/compare-samples.js';
import { escapeHtml } from './html-escape.js';
import { CHANGE_VERDICTS, STEP_EQUIVALENCE } from '../verdicts/regions.js';
import { formatOverallDetail, formatSays, formatSaysOwner } from './verdict-words.js';

const MARKS = { holds: '✔ holds', refuted: '✘ refuted', inconclusive: '? inconclusive' };

/** One interval per question: what a cell's interval is, wherever the report shows one. */
export const CENTRE_TEXT =
  "A cell's 95% CI (the summary's \"95% CI of the centre\", the charts' whiskers, the model table) is that of its " +
  'geometric mean, exp(mean(ln x) ± t(0.975, n − 1) · sd(ln x) / √n): the scale of the ratios in the Answers, and ' +
  'never below 0.';

/** The charts' legend for their whiskers: the same interval, said once. */
export const WHISKER_TEXT =
  "each cell's 95% CI of its centre (the geometric mean, Student's t on the logarithms): the interval of the summary " +
  'and the model table, on the scale of the ratios in the Answers.';

// The method is docs/statistics.md's choice (runner/stats/compare-samples.js DEFAULT_COMPARISON), named as it is.
export const METHOD_TEXT =
  `Each answer compares two cells that differ in one axis only. The ratio B / A is the ${METHODS[DEFAULT_COMPARISON.method].estimates}` +
  `${DEFAULT_COMPARISON.paired ? ', the runs paired by round (a round runs every cell once, so a slow period of the host hits both sides)' : ''}, ` +
  'with a 95% interval (medians are shown beside it; docs/statistics.md says why this method). A claim holds when the whole interval lies ' +
  'where it expects, is refuted when the whole interval lies outside, and is otherwise inconclusive: the runs cannot ' +
  'tell. A claim checked in several combinations, and a step checked across the combinations of the other axes, is ' +
  `Holm-corrected as one family. A step is called faster/slower (lower/higher) only when its interval excludes 1, and ` +
  `"no change" only when it lies inside ±${STEP_EQUIVALENCE * 100}%. "About N more runs" assumes the spread seen so far.`;

// The claim's class, where it reads the verdict otherwise than its word (runner/verdicts/capacity-class.js).
function readsAs(row) {
  return Boolean(row.class) && row.class !== row.verdict;
}

export function renderAnswersMarkdown(verdicts, escape) {
  const lines = ['## Answers', ''];
  const overall = verdicts.claims.filter((row) => row.kind === 'claim-overall');
  if (overall.length) {
    lines.push('### Claims', '');
    for (const row of overall) {
      const read = readsAs(row) ? ` (read: **${escape(row.class)}**)` : '';
      lines.push(`- **${MARKS[row.verdict]}**${read}: ${escape(`${formatSays(row)} (${formatOverallDetail(row)})`)}`);
      for (const each of verdicts.claims.filter((other) => other.kind === 'claim' && other.claim === row.claim))
        lines.push(`  - ${escape(each.words)}`);
    }
    lines.push('');
  }
  if (verdicts.steps.length) {
    lines.push(
      '### What each axis does',
      '',
      ...verdicts.leaders.map((leader) => `- ${escape(leader.words)}`),
      '',
      countSteps(verdicts.steps),
      '',
    );
    for (const axis of [...new Set(verdicts.steps.map((row) => row.axis))]) {
      lines.push(
        `#### ${escape(axis)}`,
        '',
        ...verdicts.steps.filter((row) => row.axis === axis).map((row) => `- ${escape(row.words)}`),
        '',
      );
    }
  }
  if (!overall.length && !verdicts.steps.length)
    lines.push('No axis has two values, and the experiment has no `claims:`: nothing to compare.', '');
  lines.push(`${METHOD_TEXT} Every row is in [verdicts.csv](verdicts.csv).`, '');
  return lines;
}

export function renderAnswersHtml(verdicts) {
  const badge = (verdict) => `<span class="badge ${escapeHtml(verdict)}">${escapeHtml(verdict)}</span>`;
  const parts = [];
  const overall = verdicts.claims.filter((row) => row.kind === 'claim-overall');
  if (overall.length) {
    const items = overall.map((row) => {
      const combos = verdicts.claims
        .filter((other) => other.kind === 'claim' && other.claim === row.claim)
        .map((each) => `<li>${badge(each.verdict)} ${escapeHtml(each.words.replace(/^[a-z]+: /, ''))}</li>`)
        .join('');
      const read = readsAs(row) ? ` <em>read: ${escapeHtml(row.class)}</em>` : '';
      return `<li>${badge(row.verdict)}${read} ${escapeHtml(formatSaysOwner(row))}<q>${escapeHtml(row.says)}</q> (${escapeHtml(formatOverallDetail(row))})<ul>${combos}</ul></li>`;
    });
    parts.push(`<h3>Claims</h3><ul class="answers">${items.join('\n')}</ul>`);
  }
  if (verdicts.steps.length) {
    const leaders = verdicts.leaders.map((leader) => `<li>${escapeHtml(leader.words)}</li>`).join('');
    const steps = verdicts.steps.map((row) => `<li>${badge(row.verdict)} ${escapeHtml(row.words)}</li>`).join('\n');
    parts.push(
      `<h3>What each axis does</h3><ul>${leaders}</ul><p>${escapeHtml(countSteps(verdicts.steps))}</p>` +
        `<details><summary>Every step</summary><ul class="answers">${steps}</ul></details>`,
    );
  }
  if (parts.length === 0) return null;
  return `<section id="answers"><h2>Answers</h2>${parts.join('\n')}<p class="intro">Every row is in verdicts.csv; how each answer is judged: <a href="#method">at the end</a>.</p></section>`;
}

/** The last section of report.html: how the answers are judged and what a cell's interval is. */
export function renderMethodHtml() {
  return `<section id="method"><h2>How the answers are judged</h2><p class="intro">${escapeHtml(METHOD_TEXT)}</p><p class="intro">${escapeHtml(CENTRE_TEXT)}</p></section>`;
}

export const ANSWERS_STYLE = `
.badge { display: inline-block; min-width: 6.5em; text-align: center; border-radius: 4px; padding: 0 6px; font-size: 12px; font-weight: 600; color: #fff; background: #777; }
.badge.holds, .badge.no-change { background: #1a7f37; } .badge.refuted { background: #cf222e; } .badge.inconclusive { background: #9a6700; }
.badge.faster, .badge.slower, .badge.lower, .badge.higher { background: #0969da; }
ul.answers { list-style: none; padding-left: 0; } ul.answers ul { list-style: none; padding-left: 2em; } ul.answers li { margin: 3px 0; }
`;

/** The block at the end of `npm run matrix` and the body of `npm run claims`. */
export function formatAnswersText(verdicts, { allSteps = false } = {}) {
  const lines = [];
  for (const row of verdicts.claims) lines.push(row.kind === 'claim-overall' ? row.words : `    ${row.words}`);
  if (verdicts.steps.length) {
    lines.push(countSteps(verdicts.steps), ...verdicts.leaders.map((leader) => leader.words));
    if (allSteps) lines.push(...verdicts.steps.map((row) => `  ${row.words}`));
  }
  return lines;
}

function countSteps(steps) {
  const counts = new Map();
  for (const row of steps) counts.set(row.verdict, (counts.get(row.verdict) ?? 0) + 1);
  const order = [...CHANGE_VERDICTS, 'no-change', 'inconclusive'].filter((verdict) => counts.has(verdict));
  return `Steps between neighbouring axis values: ${order.map((verdict) => `${counts.get(verdict)} ${verdict}`).join(', ')} (of ${steps.length}).`;
}
