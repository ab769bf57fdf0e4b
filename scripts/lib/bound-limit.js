// What a budget's answer costs at best, at the same noise: the limits the bound study of `npm run bench:stats` holds a
// rule's expected runs against.
// - Wald's lower bound (Wald 1945; the data-processing inequality on the stopped likelihood ratio): any sequential
//   test of H0 "setting s is at least `within` worse than j" against the truth, with error α at H0 and power p at the
//   truth, needs on average at least [p·ln(p/α) + (1 − p)·ln((1 − p)/(1 − α))] / KL rounds, KL = (δ − d)² / (2σ_d²)
//   the information a round of the pair gives (σ and the gaps known: an oracle; the SPRT comes close to it).
// - A fixed-sample test with σ unknown: every setting n rounds, read once, Student's t with the two-way fit's df,
//   power from the noncentral t: the cost of not knowing σ and of not looking early, with no α spent on looks.
import jstatModule from 'jstat';

const { jStat } = jstatModule;

/** The fewest rounds, on average, any sequential test of one comparison can need (see the top of this file). */
export function waldRounds(alpha, power, information) {
  const p = Math.min(Math.max(power, 0), 1);
  // No better than a coin with the error's odds: a test that settles no more often than α needs no run at all.
  if (p <= alpha) return 0;
  const q = 1 - p;
  const needed = (p > 0 ? p * Math.log(p / alpha) : 0) + (q > 0 ? q * Math.log(q / (1 - alpha)) : 0);
  return Math.max(0, needed) / information;
}

/**
 * The oracle's runs for one budget: for the good setting s that is cheapest to show (truly within `within` of the
 * best), each other setting j runs N_sj = max(1, waldRounds) rounds beside s and s runs the most of them; at least one
 * run of every setting. Per comparison α/(k − 1), as the bound's; the power the rule reached (its share of settled
 * answers): a test that settles as often as the rule does.
 * @param {{ gap: number, scale?: number }[]} settings  true log gaps to the best; scale: the setting's noise factor
 * @param {{ sd: number, within: number, alpha: number, power: number }} options  sd: a run's own noise (log scale)
 * @returns {number} runs
 */
export function oracleRuns(settings, { sd, within, alpha, power }) {
  const delta = Math.log1p(within);
  const k = settings.length;
  const each = alpha / Math.max(1, k - 1);
  let best = Infinity;
  settings.forEach((s, i) => {
    if (s.gap > delta) return;
    const rounds = settings.map((j, m) => {
      if (m === i) return 0;
      const variance = sd * sd * ((s.scale ?? 1) ** 2 + (j.scale ?? 1) ** 2);
      const margin = delta - (s.gap - j.gap);
      return Math.max(1, waldRounds(each, power, (margin * margin) / (2 * variance)));
    });
    const runs = rounds.reduce((sum, n) => sum + n, 0) + Math.max(1, ...rounds);
    best = Math.min(best, runs);
  });
  return best;
}

/**
 * The fixed-sample test's runs for one budget: the fewest rounds n (every setting n rounds, one reading) at which the
 * cheapest good setting's bound against each other setting is under `within` with probability at least `power`
 * (noncentral t, df of the two-way fit (k − 1)(n − 1), per comparison α/(k − 1)); k·n runs. Infinity past `most`.
 */
export function fixedSampleRuns(settings, { sd, within, alpha, power, most = 200 }) {
  const delta = Math.log1p(within);
  const k = settings.length;
  const each = alpha / Math.max(1, k - 1);
  const good = settings.filter(({ gap }) => gap <= delta);
  if (good.length === 0 || !(power > 0)) return k;
  for (let n = 2; n <= most; n++) {
    const df = (k - 1) * (n - 1);
    const critical = jStat.studentt.inv(1 - each, df);
    const reaches = good.some((s) =>
      settings.every((j) => {
        if (j === s) return true;
        const se = sd * Math.sqrt(((s.scale ?? 1) ** 2 + (j.scale ?? 1) ** 2) / n);
        const ncp = (delta - (s.gap - j.gap)) / se;
        return 1 - noncentralTCdf(critical, df, ncp) >= power;
      }),
    );
    if (reaches) return k * n;
  }
  return Infinity;
}

/** P(T ≤ x) for a noncentral t with df and ncp (jStat's). */
function noncentralTCdf(x, df, ncp) {
  return jStat.noncentralt.cdf(x, df, ncp);
}
