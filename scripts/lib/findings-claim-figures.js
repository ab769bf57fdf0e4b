// The post's own numbers a claim tests (its `figures:`, runner/verdicts/judge-figures.js), on docs/findings.md: one
// row per figure and cell with the figure as printed (and in the metric's unit), ours with its 95% interval, here ÷
// the post with its interval, the class and verdict, and why it may differ here. And their counts for the headline.
import { escapeCell, formatNumber } from './findings-format.js';
import { findMetric } from '../../runner/domain/metrics.js';
import { FIGURE_WITHIN } from '../../runner/verdicts/judge-figures.js';

const HEAD = [
  "| claim | the post's figure | here [95% CI] (n) | here ÷ the post [95% CI] | class (verdict) | why it may differ here |",
  '| --- | --- | --- | --- | --- | --- |',
];

/**
 * @param {object[]} overall  the experiment's claim-overall rows (each with `figures`, `says`, `control`)
 * @returns {string[]}  the table, or a line saying the experiment's claims quote no figure
 */
export function renderClaimFigures(overall) {
  const rows = overall.flatMap((claim) => (claim.figures ?? []).map((figure) => formatFigureRow(claim, figure)));
  return rows.length === 0 ? ['(no claim of this experiment tests a figure of its post)'] : [...HEAD, ...rows];
}

function formatFigureRow(claim, figure) {
  const unit = findMetric(figure.metric).unit;
  const withUnit = (value) => `${formatNumber(value)}${unit ? ` ${unit}` : ''}`;
  const printed = /^[\d.,]+$/.test(figure.quote) || figure.quote.includes('..') ? '' : ` = ${withUnit(figure.post)}`;
  const post = `${figure.what}${figure.where ? ` (${figure.where})` : ''}: "${figure.quote}"${printed}`;
  const n = figure.n.length === 1 ? `n ${figure.n[0]}` : `n ${figure.n.join('/')}`;
  const interval = Number.isFinite(figure.low) ? ` [${formatNumber(figure.low)}, ${formatNumber(figure.high)}]` : '';
  const ratio = Number.isFinite(figure.ratio_low)
    ? `${formatNumber(figure.ratio)} [${formatNumber(figure.ratio_low)}, ${formatNumber(figure.ratio_high)}]`
    : formatNumber(figure.ratio);
  const unmet = figure.class === "outside the post's conditions" ? `; ${figure.conditions_unmet.join('; ')}` : '';
  const band = `band ${formatNumber(figure.band[0])}–${formatNumber(figure.band[1])}`;
  return `| ${escapeCell(claim.says)} | ${escapeCell(post)} | ${withUnit(figure.here)}${interval} (${n}) | ${ratio} | ${escapeCell(`**${figure.class}** (${figure.verdict}; ${band}${unmet})`)} | ${escapeCell(figure.differs)} |`;
}

/**
 * "24 tested here: 2 hold, 14 refuted, …" over the published claims' figures; '' when none tests one.
 * @param {object[]} claims  claim-overall rows
 * @param {string[]} classes  the order to count them in
 */
export function countClaimFigures(claims, classes) {
  const figures = claims.flatMap((claim) => claim.figures ?? []);
  if (figures.length === 0) return '';
  const order = [...new Set(['holds', 'refuted', 'inconclusive', ...classes])];
  const counts = order
    .map((name) => [name, figures.filter((figure) => figure.class === name).length])
    .filter(([, count]) => count > 0)
    .map(([name, count]) => `${count} ${name === 'holds' ? 'hold' : name}`);
  return `the posts' own figures these claims quote, ${figures.length} tested on this host (ours ÷ theirs within ±${Math.round(FIGURE_WITHIN * 100)}% unless a figure says otherwise, with the reason each may differ): ${counts.join(', ')}`;
}
