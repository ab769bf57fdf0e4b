// What the simulation's counts say: per method a summary, the winner by a rule fixed here before any run (keep
// coverage at the nominal level, then decide most often), and the defaults for repetitions and the adaptive cap.
import { median } from '../../runner/stats/statistics.js';
import { CLAIMS, TRUE_RATIOS, trueLabels } from './stats-simulation.js';

/** An interval at nominal 95% must cover the truth at least this often in simulation (2000 trials: ±0.5%). */
export const MIN_COVERAGE = 0.94;

/**
 * No claim may be decided wrongly more often than this (the "never judged wrongly in more than 5%"). Steps
 * are left out: a step between equal cells is called a change as often as the interval misses 1, which is the
 * coverage's business (5% for an exact 95% interval, by design).
 */
export const MAX_WRONG = 0.05;

/**
 * Profiles that must keep the coverage and wrong-decision limits but do not enter "right on average": noise recorded
 * while this project's own parallel jobs loaded the 2-CPU host to a load average of 8–17 — four to eight times its
 * CPUs, unlike the host a person measures on. The first version of this study averaged over it too and chose
 * `welch paired`; with a profile of the same host to itself (`quiet`), the decision is made on the host as used.
 */
export const GUARD_ONLY_PROFILES = ['busy'];

/** The claims a default config asks, at the ratio they hold at: what `repetitions` and the cap are chosen for. */
export const TYPICAL = [
  { claim: 'ratio', ratio: 0.5 },
  { claim: 'same25', ratio: 1 },
  { claim: 'same10', ratio: 1 },
  { claim: 'above', ratio: 1 },
];

/**
 * `repetitions`: the fewest runs a cell at which a typical claim is decided right this often (on average) without
 * more.
 */
export const REPETITIONS_DECIDE = 0.75;

/** The cap: the fewest runs a cell at which adaptive rounds decide each typical claim right this often. */
export const CAP_DECIDE = 0.95;

/** One variant's counts → coverage, median width and confidence, decision rates per claim and ratio. */
export function summarizeVariant(tally) {
  const decisions = Object.fromEntries(
    CLAIMS.map(({ key }) => [
      key,
      Object.fromEntries(
        Object.entries(tally.decisions[key]).map(([ratio, counts]) => [
          ratio,
          {
            right: counts.right / tally.trials,
            wrong: counts.wrong / tally.trials,
            inconclusive: counts.inconclusive / tally.trials,
          },
        ]),
      ),
    ]),
  );
  const cases = CLAIMS.flatMap((claim) =>
    TRUE_RATIOS.filter((ratio) => trueLabels(claim, ratio)).map((ratio) => ({
      claim: claim.key,
      ...decisions[claim.key][ratio],
    })),
  );
  const claimCases = cases.filter(({ claim }) => claim !== 'step');
  return {
    trials: tally.trials,
    intervals: tally.intervals / tally.trials,
    coverage: tally.intervals ? tally.covered / tally.intervals : null,
    width: tally.widths.length ? median(tally.widths) : null,
    confidence: tally.confidence.length ? median(tally.confidence) : null,
    right: cases.reduce((sum, counts) => sum + counts.right, 0) / cases.length,
    wrong: Math.max(...claimCases.map((counts) => counts.wrong)),
    decisions,
  };
}

/**
 * The rule: of the variants whose intervals cover at least MIN_COVERAGE wherever they give one (every scenario,
 * rule and n, busy included) and that never decide wrongly more than MAX_WRONG, the one right most often on average
 * over the profiles of the host as used (GUARD_ONLY_PROFILES aside); ties go to the narrower median interval.
 * @returns {{ method: string, paired: boolean, standing: object[] }} standing: every variant's record, best first
 */
export function chooseWinner(results, variants) {
  const standing = variants
    .map(({ method, paired }) => {
      const rows = results.filter((row) => row.method === method && row.paired === paired);
      const covered = rows.filter((row) => row.coverage !== null);
      const coverage = covered.length ? Math.min(...covered.map((row) => row.coverage)) : null;
      const wrong = Math.max(...rows.map((row) => row.wrong));
      const deciding = rows.filter((row) => !GUARD_ONLY_PROFILES.includes(row.profile));
      const right =
        (deciding.length ? deciding : rows).reduce((sum, row) => sum + row.right, 0) / (deciding.length || rows.length);
      const width = median(covered.map((row) => row.width));
      const failures = [];
      if (coverage === null || coverage < MIN_COVERAGE) failures.push(`coverage down to ${formatShare(coverage)}`);
      if (wrong > MAX_WRONG) failures.push(`wrong in up to ${formatShare(wrong)}`);
      return { method, paired, coverage, wrong, right, width, eligible: failures.length === 0, failures };
    })
    .sort((u, v) => Number(v.eligible) - Number(u.eligible) || v.right - u.right || u.width - v.width);
  const [best] = standing;
  return { method: best.method, paired: best.paired, eligible: best.eligible, standing };
}

/**
 * Within a folder, two cells that ran the same rounds can be compared on those rounds (paired): the eligible paired
 * method (coverage and wrong decisions as for the winner) that decides right most often, and the fewest runs a cell
 * from which it decides as often as the unpaired winner or more, at every larger count too, on every profile that
 * decides (the disturbed-run rule on, as the runner runs).
 * @returns {{ method: string, paired: true, minRounds: number|null, rows: object[] }|null}  rows: per profile and runs
 *   a cell, the paired method's right share beside the winner's
 */
export function chooseBlocked(results, winner) {
  const paired = winner.standing.filter((row) => row.paired && row.eligible).sort((u, v) => v.right - u.right)[0];
  if (!paired) return null;
  const deciding = [...new Set(results.map((row) => row.profile))].filter((p) => !GUARD_ONLY_PROFILES.includes(p));
  const counts = [...new Set(results.map((row) => row.n))].sort((a, b) => a - b);
  const rightOf = (variant, profile, n) =>
    results.find(
      (row) =>
        row.method === variant.method &&
        row.paired === variant.paired &&
        row.profile === profile &&
        row.n === n &&
        row.rule === 'on',
    )?.right ?? null;
  const rows = deciding.flatMap((profile) =>
    counts.map((n) => ({ profile, n, paired: rightOf(paired, profile, n), unpaired: rightOf(winner, profile, n) })),
  );
  const atLeast = (n) => rows.filter((row) => row.n >= n).every((row) => row.paired >= row.unpaired);
  return { method: paired.method, paired: true, minRounds: counts.find(atLeast) ?? null, rows };
}

/** Candidate values of `repetitions` and of the adaptive cap the study tries. */
export const REPETITION_CANDIDATES = [3, 4, 5, 6, 7, 8, 10];
export const CAP_CANDIDATES = [6, 8, 10, 12, 15, 20];

/**
 * @param {{ n: number, rows: object[] }[]} fixed  simulateAdaptive rows with start = cap = n, per candidate n
 * @returns {{ repetitions: number, fixed: object[] }}  the fewest runs at which the typical claims are decided
 *   right at least REPETITIONS_DECIDE of the time on average (the largest candidate when none is)
 */
export function chooseRepetitions(fixed) {
  const rated = fixed.map(({ n, rows }) => ({ n, ...rateTypical(rows) }));
  const found = rated.find((row) => row.meanRight >= REPETITIONS_DECIDE);
  return { repetitions: (found ?? rated.at(-1)).n, fixed: rated };
}

/**
 * @param {{ cap: number, rows: object[] }[]} adaptive  simulateAdaptive rows from `repetitions` to each cap
 * @returns {{ cap: number|null, adaptive: object[] }}  the smallest cap at which every typical claim ends right at
 *   least CAP_DECIDE of the time and no case wrong more than MAX_WRONG; null when none does
 */
export function chooseCap(adaptive) {
  const rated = adaptive.map(({ cap, rows }) => ({ cap, ...rateTypical(rows) }));
  const found = rated.find((row) => row.minRight >= CAP_DECIDE && row.maxWrong <= MAX_WRONG);
  return { cap: found?.cap ?? null, adaptive: rated };
}

function rateTypical(rows) {
  const typical = TYPICAL.map(({ claim, ratio }) => rows.find((row) => row.claim === claim && row.ratio === ratio));
  return {
    minRight: Math.min(...typical.map((row) => row.right / row.trials)),
    meanRight: typical.reduce((sum, row) => sum + row.right / row.trials, 0) / typical.length,
    meanRounds: typical.reduce((sum, row) => sum + row.rounds / row.trials, 0) / typical.length,
    maxWrong: Math.max(...rows.map((row) => row.wrong / row.trials)),
    worstWrong: rows.reduce((worst, row) => (row.wrong > worst.wrong ? row : worst)),
    rows,
  };
}

function formatShare(share) {
  return share === null ? '—' : `${(100 * share).toFixed(1)}%`;
}
