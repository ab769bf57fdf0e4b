// The simulation behind `npm run bench:stats`: pairs of cells drawn from the fitted noise, every method of
// runner/stats/compare-samples.js applied to them, and how often each covers the truth and decides a claim.
// Every method is equivariant on the log scale (adding log ρ to every log b moves the interval by log ρ and
// nothing else), so one draw at ratio 1 serves every true ratio: a region (lo, hi) at ratio ρ is the region
// (lo − log ρ, hi − log ρ) at ratio 1. The ratios share their random numbers, which sharpens their contrast.
import { compareSamples } from '../../runner/stats/compare-samples.js';
import { expectRegions, stepRegions } from '../../runner/verdicts/regions.js';

export const TRUE_RATIOS = [0.5, 0.9, 1.0, 1.05];

/** What a verdict is asked, with the label(s) true at each ratio (a label whose open region holds the ratio). */
export const CLAIMS = [
  { key: 'ratio', title: 'ratio 0.5 ±20%', regions: expectRegions({ ratio: 0.5, within: 0.2 }) },
  { key: 'same25', title: 'same ±25%', regions: expectRegions({ same: 0.25 }) },
  { key: 'same10', title: 'same ±10%', regions: expectRegions({ same: 0.1 }) },
  { key: 'above', title: 'above 0.9', regions: expectRegions({ above: 0.9 }) },
  { key: 'step', title: 'step ±5%', regions: stepRegions('ms') },
];

/**
 * The labels true at ratio ρ; null where ρ sits on the edge between regions and no label is true (same ±10% and
 * above 0.9 at 0.9): those cases count for nothing.
 */
export function trueLabels(claim, ratio) {
  const labels = new Set(
    claim.regions.filter(({ low, high }) => ratio > low && ratio < high).map(({ label }) => label),
  );
  return labels.size ? labels : null;
}

/**
 * The verdict judgeFamily gives a family of one: the first label (in region order) one of whose regions holds the
 * whole 95% interval, moved by `shift` = log ρ; 'inconclusive' otherwise. judgeFamily asks pInside < α, which
 * is the same thing (a unit test holds every method to it) but costs a distribution function per region.
 */
export function decide(comparison, regions, shift = 0) {
  if (comparison.ci_low === null) return 'inconclusive';
  const [low, high] = [comparison.log.low + shift, comparison.log.high + shift];
  const labels = [...new Set(regions.map(({ label }) => label))];
  const inside = (region) => low > Math.log(region.low) && high < Math.log(region.high);
  return labels.find((label) => regions.some((region) => region.label === label && inside(region))) ?? 'inconclusive';
}

/**
 * Draws of one pair of cells: n rounds, each with one run of A and one of B; the model's core residuals, spikes
 * (on their own or, with the round's slow period, on both sides at once) and round-wide shift. With `detect` > 0
 * the disturbed-run rule: a spike is flagged with that probability, and a flagged run is replaced by a fresh
 * run (made later, alone, so sharing nothing with its round), at most `retries` per cell.
 * @returns {{ a: number[], b: number[] }} values around 1000 (B at ratio 1)
 */
export function drawPair(model, scenario, n, random, { detect = 0, retries = 2 } = {}) {
  const a = [];
  const b = [];
  const retried = { a: 0, b: 0 };
  const coreOf = () => model.core[Math.floor(random() * model.core.length)];
  const spikeOf = () => model.spikes[Math.floor(random() * model.spikes.length)];
  const freshRun = () =>
    random() < scenario.spikeRate ? { residual: spikeOf(), spike: true } : { residual: coreOf(), spike: false };
  for (let round = 0; round < n; round++) {
    const shift = scenario.roundSd * normal(random);
    const slow = random() < scenario.sharedRate ? spikeOf() : null;
    for (const [side, values] of [
      ['a', a],
      ['b', b],
    ]) {
      let run =
        random() < scenario.ownRate ? { residual: spikeOf(), spike: true } : { residual: coreOf(), spike: false };
      if (slow !== null) run = { residual: Math.max(run.residual, slow), spike: true };
      run.residual += shift;
      while (detect > 0 && run.spike && retried[side] < retries && random() < detect) {
        retried[side] += 1;
        run = freshRun();
      }
      values.push(1000 * Math.exp(run.residual));
    }
  }
  return { a, b };
}

/**
 * One scenario's noise: the spike rate split into a round's slow period hitting both sides (sharedRate) and each
 * run's own (ownRate), so that a run is slowed with probability spikeRate either way.
 */
export function buildScenario(model, { name, sharedRate, roundSd }) {
  const ownRate = 1 - (1 - model.spikeRate) / (1 - sharedRate);
  return { name, spikeRate: model.spikeRate, sharedRate, ownRate, roundSd };
}

/** Box–Muller: one standard normal from two uniforms. */
function normal(random) {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/**
 * Every method on `trials` pairs of n rounds: coverage of the true ratio (pooled over ratios: equivariance makes
 * it the same at each), interval widths, and per claim and ratio the counts of right, wrong and inconclusive.
 */
export function simulateFixedRuns(model, scenario, n, variants, { trials, random, detect, retries }) {
  const tallies = variants.map(() => ({
    intervals: 0,
    covered: 0,
    widths: [],
    confidence: [],
    decisions: emptyDecisions(),
  }));
  for (let trial = 0; trial < trials; trial++) {
    const { a, b } = drawPair(model, scenario, n, random, { detect, retries });
    variants.forEach(({ method, paired }, index) => {
      const comparison = compareSamples(a, b, { method, paired });
      tallyComparison(tallies[index], comparison);
    });
  }
  return tallies.map((tally) => ({ ...tally, trials }));
}

function tallyComparison(tally, comparison) {
  if (comparison.ci_low !== null) {
    tally.intervals += 1;
    if (comparison.log.low <= 0 && comparison.log.high >= 0) tally.covered += 1;
    tally.widths.push(Math.sqrt(comparison.ci_high / comparison.ci_low) - 1);
    tally.confidence.push(comparison.confidence);
  }
  for (const claim of CLAIMS) {
    for (const ratio of TRUE_RATIOS) {
      const truth = trueLabels(claim, ratio);
      if (!truth) continue;
      const verdict = decide(comparison, claim.regions, Math.log(ratio));
      const cell = tally.decisions[claim.key][ratio];
      if (verdict === 'inconclusive') cell.inconclusive += 1;
      else if (truth.has(verdict)) cell.right += 1;
      else cell.wrong += 1;
    }
  }
}

function emptyDecisions() {
  return Object.fromEntries(
    CLAIMS.map(({ key }) => [
      key,
      Object.fromEntries(TRUE_RATIOS.map((ratio) => [ratio, { right: 0, wrong: 0, inconclusive: 0 }])),
    ]),
  );
}

/**
 * Adaptive repetitions for one method: start with `start` rounds, add a round while the claim is undecided, stop
 * at `cap`. Per (claim, ratio): how often it ended right, wrong or undecided, and the mean rounds used.
 */
export function simulateAdaptive(model, scenario, variant, cases, { start, cap, trials, random, detect, retries }) {
  return cases.map(({ claim, ratio }) => {
    const truth = trueLabels(claim, ratio);
    const counts = { right: 0, wrong: 0, inconclusive: 0, rounds: 0, trials };
    for (let trial = 0; trial < trials; trial++) {
      const { a, b } = drawPair(model, scenario, cap, random, { detect, retries });
      let verdict = 'inconclusive';
      let n = start;
      for (; n <= cap; n++) {
        verdict = decide(compareSamples(a.slice(0, n), b.slice(0, n), variant), claim.regions, Math.log(ratio));
        if (verdict !== 'inconclusive') break;
      }
      counts.rounds += Math.min(n, cap);
      if (verdict === 'inconclusive') counts.inconclusive += 1;
      else if (truth.has(verdict)) counts.right += 1;
      else counts.wrong += 1;
    }
    return { claim: claim.key, ratio, ...counts };
  });
}
