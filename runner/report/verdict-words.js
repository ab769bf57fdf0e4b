// Verdict rows → sentences a person reads: percentages for steps, ratios for claims (their expectations are
// ratios), always with the interval and the runs behind it. One estimator a sentence: the ratio and its interval are
// the comparison method's (docs/report.md names it once); the medians are in the summary table, not beside the ratio.
import { formatNumber } from './format.js';
import { CHANGE_VERDICTS, STEP_EQUIVALENCE } from '../verdicts/regions.js';

/** 0.51 → "−49%", 1.004 → "+0.4%": the change a ratio means, signed. */
export function formatChange(ratio) {
  if (typeof ratio !== 'number' || !Number.isFinite(ratio)) return '?';
  const percent = (ratio - 1) * 100;
  const digits = Math.abs(percent) >= 10 ? 0 : 1;
  const text = Math.abs(percent).toFixed(digits);
  if (Number(text) === 0) return '0%';
  return `${percent < 0 ? '−' : '+'}${text}%`;
}

function interval({ ratio, ci95_low: low, ci95_high: high }, format) {
  return low === null ? `${format(ratio)} (no interval)` : `${format(ratio)} [${format(low)}, ${format(high)}]`;
}

// The runs behind a ratio, and whether they were compared round by round.
function runs(row) {
  return `n ${row.comparison.n_a}/${row.comparison.n_b}${row.comparison.paired ? ', paired by round' : ''}`;
}

/**
 * A comparison with no run on a side has nothing to judge: the sentence says so, and why, instead of a verdict.
 * @returns {string|null}
 */
function describeUncounted(row) {
  const { n_a: a, n_b: b } = row.comparison ?? {};
  if (a > 0 && b > 0) return null;
  const side = a === 0 && b === 0 ? 'either side' : a === 0 ? `${row.a}` : `${row.b}`;
  return `not judged: no run of ${side} counted (each failed, was a warm-up, or was disturbed and left out; or the host did not give the cell its CPUs)`;
}

/**
 * A claim's own words, marked as whose they are: numbers a post (or the claim's author) wrote must not read as
 * measured here. `the post (003): "…"`, `control: "…"`, `claimed: "…"`.
 */
export function formatSays(row) {
  return `${formatSaysOwner(row)}"${row.says}"`;
}

/** "the post (003): ", "control: " or "claimed: ": whose words a claim's `says` are. */
export function formatSaysOwner(row) {
  if (row.post) return `the post (${row.post}): `;
  return row.control ? 'control: ' : 'claimed: ';
}

function stepHead(row) {
  return `${row.axis} ${row.a} → ${row.b}${row.where ? ` at ${row.where}` : ''}`;
}

/** What more runs would do for an undecided row, or why they would not. */
export function formatRunsNeeded(row) {
  const have = Math.max(row.comparison?.n_a ?? 0, row.comparison?.n_b ?? 0);
  if (!row.comparison?.log) return row.comparison?.reason ?? '';
  if (row.runs_needed === null) return 'the estimate sits on a boundary: more runs are unlikely to settle it';
  return `about ${row.runs_needed - have} more run${row.runs_needed - have === 1 ? '' : 's'} per cell (${row.runs_needed} in all) would probably settle it`;
}

function holmNote(row) {
  return row.raw !== row.verdict && row.family > 1
    ? ` (the interval alone says ${row.raw}; not after Holm's correction for ${row.family} combinations)`
    : '';
}

export function formatStep(row) {
  const { comparison } = row;
  const uncounted = describeUncounted(row);
  if (uncounted) return `${stepHead(row)}: ${row.metric} ${uncounted}`;
  const measured = `${row.metric} ${interval(comparison, formatChange)} (${runs(row)})`;
  if (CHANGE_VERDICTS.has(row.verdict)) return `${stepHead(row)}: ${measured}, ${row.verdict}`;
  // The one vocabulary (report/ratio-words.js): "about the same" only inside the band, "not distinguishable" else.
  if (row.verdict === 'no-change') {
    const bound = Math.max(Math.abs(comparison.ci95_low - 1), Math.abs(comparison.ci95_high - 1));
    const shown = Math.max(1, Math.ceil(bound * 100 - 1e-9));
    return `${stepHead(row)}: about the same, no difference beyond ±${shown}% (${row.metric} ${interval(comparison, formatChange)}, ${runs(row)})`;
  }
  const more = formatRunsNeeded(row);
  return `${stepHead(row)}: not distinguishable, ${measured}${holmNote(row)}${more ? `; ${more} (±${STEP_EQUIVALENCE * 100}% band)` : ''}`;
}

export function formatClaimRow(row) {
  const { comparison } = row;
  const uncounted = describeUncounted(row);
  if (uncounted)
    return `${row.verdict}: ${row.axis} ${row.a} → ${row.b}${row.where ? ` at ${row.where}` : ''}: ${row.metric} ${uncounted}; expected ${row.expect}`;
  const measured = `${row.metric} B/A ${interval(comparison, (value) => formatNumber(value, 3))} = ${interval(comparison, formatChange)} (${runs(row)})`;
  const more = row.verdict === 'inconclusive' ? formatRunsNeeded(row) : '';
  return `${row.verdict}: ${row.axis} ${row.a} → ${row.b}${row.where ? ` at ${row.where}` : ''}: ${measured}; expected ${row.expect}${holmNote(row)}${more ? `; ${more}` : ''}${formatClassNote(row)}`;
}

export function formatOverall(row) {
  return `${row.verdict.toUpperCase()}: ${formatSays(row)} (${formatOverallDetail(row)})${formatClassNote(row)}`;
}

// How to read the verdict, where the class says more than it (runner/verdicts/capacity-class.js): every class but
// the verdict's own word, and "contradicted" with what the model or the post's conditions say.
function formatClassNote(row) {
  const plain = row.class === row.verdict || (row.class === 'contradicted' && !row.class_note);
  return !row.class || plain ? '' : ` — ${row.class}${row.class_note ? `: ${row.class_note}` : ''}`;
}

/** What the overall line says after the claim's own words: metric, step, expectation, combinations. */
export function formatOverallDetail(row) {
  const counts = ['holds', 'refuted', 'inconclusive']
    .map((verdict) => [verdict, row.combinations.filter((v) => v === verdict).length])
    .filter(([, n]) => n > 0);
  const detail =
    row.family === 0
      ? (row.missing ?? 'no pair of cells differs in this axis alone')
      : row.family === 1
        ? '1 combination'
        : `${row.family} combinations: ${counts.map(([v, n]) => `${n} ${v}`).join(', ')}, Holm-corrected`;
  const more =
    row.verdict === 'inconclusive' && row.runs_needed !== null
      ? `; about ${row.runs_needed} runs per cell would probably settle it`
      : '';
  const outside = row.outside?.length ? `; outside the post's conditions: ${row.outside.join(', ')}` : '';
  return `${row.metric ? `${row.metric}, ` : ''}${row.axis} ${row.a} → ${row.b}${row.where ? ` at ${row.where}` : ''}, ${row.expect}; ${detail}${outside}${more}`;
}

export function formatVerdictRow(row) {
  if (row.kind === 'step') return formatStep(row);
  if (row.kind === 'claim') return formatClaimRow(row);
  return formatOverall(row);
}
