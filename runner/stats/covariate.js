// A covariate taken out of a comparison (ANCOVA within groups; CUPED in A/B testing): when a second measurement x of
// each run moves with the run's value y for a reason the comparison does not care about — the speed probe's time
// (speed_probe_ms) moves with the host's CPU speed just as wall_ms does — y − β·(x − x̄) keeps what y says about its
// group and loses what x explains. β is the pooled slope within groups (each group, e.g. a cell, its own mean), so a
// difference between groups never leaks into it. Used on logs: log wall on log probe.

/**
 * The pooled within-group least-squares slope of y on x, and what it explains.
 * @param {{ x: number[], y: number[] }[]} groups  paired values per group (e.g. log probe, log wall of one cell's runs)
 * @returns {{ slope: number, correlation: number, n: number, groups: number, sdBefore: number, sdAfter: number,
 *   varianceReduction: number } | null}  sdBefore: the residual SD of y about its group means (n − groups degrees of
 *   freedom); sdAfter: about the fitted lines (n − groups − 1); varianceReduction: 1 − sdAfter² / sdBefore²;
 *   null when x does not vary within any group or fewer than groups + 2 pairs
 */
export function fitWithinSlope(groups) {
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  let n = 0;
  let used = 0;
  for (const { x, y } of groups) {
    const pairs = x
      .map((value, index) => [value, y[index]])
      .filter(([a, b]) => Number.isFinite(a) && Number.isFinite(b));
    if (pairs.length === 0) continue;
    const mx = mean(pairs.map(([a]) => a));
    const my = mean(pairs.map(([, b]) => b));
    for (const [a, b] of pairs) {
      sxx += (a - mx) ** 2;
      sxy += (a - mx) * (b - my);
      syy += (b - my) ** 2;
    }
    n += pairs.length;
    used += 1;
  }
  if (!(sxx > 0) || n < used + 2) return null;
  const slope = sxy / sxx;
  const sdBefore = Math.sqrt(syy / (n - used));
  const sdAfter = Math.sqrt(Math.max(0, syy - slope * sxy) / (n - used - 1));
  return {
    slope,
    correlation: syy > 0 ? sxy / Math.sqrt(sxx * syy) : 0,
    n,
    groups: used,
    sdBefore,
    sdAfter,
    varianceReduction: 1 - sdAfter ** 2 / sdBefore ** 2,
  };
}

/** y − slope·(x − centre), value by value: the adjusted values (centre: the x every value is moved to, e.g. x̄). */
export function adjustByCovariate(y, x, slope, centre) {
  return y.map((value, index) => value - slope * (x[index] - centre));
}

function mean(values) {
  return values.reduce((total, value) => total + value, 0) / values.length;
}
