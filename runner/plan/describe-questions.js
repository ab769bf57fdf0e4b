// What the plan will be asked, said before anything runs: each claim with the metric it resolves to per workload (its
// `metric:`, else the workload's first primary metric) and which way is better, so that `below: 0.9` on an http
// matrix reads as what it is (fewer requests a second: worse); and the advice's metric when `recommend:` is there.
import { findMetric, primaryMetrics } from '../domain/metrics.js';
import { formatExpect } from '../verdicts/regions.js';
import { listAxes, listBudgetAxes } from '../cells/axes.js';
import { pairClaimCells } from '../cells/claim-pairs.js';

/**
 * @param {{ experiment: object, cells: object[] }} plan
 * @returns {{ claims: object[], advice: object|null, warnings: object[] }}  warnings with `path` from the file's top
 *   (plan-warnings.js places them in the file)
 */
export function describeQuestions(plan) {
  const axes = listAxes(plan);
  const claims = (plan.experiment.claims ?? []).map((claim, index) => describeClaim(plan, axes, claim, index));
  return {
    claims: claims.map(({ warning, ...claim }) => claim),
    advice: describeAdvice(plan, axes),
    warnings: claims.flatMap(({ warning }) => (warning ? [warning] : [])),
  };
}

function describeClaim(plan, axes, claim, index) {
  const [[axis, [a, b]]] = Object.entries(claim.compare);
  const pairs = pairClaimCells(plan.cells, axes, claim);
  const workloads = [...new Set(pairs.map((pair) => pair.a.workload))];
  const metrics = workloads.map((workload) => {
    const column = claim.metric ?? primaryMetrics(workload)[0].column;
    return { workload, metric: column, better: findMetric(column).better ?? null, defaulted: claim.metric === null };
  });
  const side = claim.expect.below !== undefined ? 'below' : claim.expect.above !== undefined ? 'above' : null;
  const bound = side ? claim.expect[side] : null;
  const described = metrics.map((metric) => ({
    ...metric,
    meaning: side ? describeSide(side, bound, metric.better) : null,
  }));
  const path = ['experiments', plan.experiment.name, 'claims', index, 'expect'];
  const surprising = described.filter((metric) => metric.defaulted && metric.better === 'higher' && side);
  return {
    claim: index + 1,
    says: claim.says,
    axis,
    a,
    b,
    expect: formatExpect(claim.expect),
    pairs: pairs.length,
    metrics: described,
    warning:
      surprising.length === 0
        ? null
        : {
            path,
            message: `${side} ${bound} means ${describeSide(side, bound, 'higher')} here: with no \`metric:\` the claim is judged on ${surprising.map(({ workload, metric }) => `${metric} (${workload}'s first primary metric)`).join(', ')}, where higher is better, so B / A ${side} ${bound} says ${axis}=${b} is ${side === 'below' ? 'worse' : 'better'} than ${axis}=${a}`,
            hint: [
              `write \`metric: ${surprising[0].metric}\` in the claim to say you mean it`,
              ...primaryMetrics(surprising[0].workload)
                .filter((metric) => metric.better === 'lower')
                .slice(0, 1)
                .map((metric) => `\`metric: ${metric.column}\` to judge ${metric.label} (lower is better)`),
              `or, if you meant ${axis}=${b} is ${side === 'below' ? 'better' : 'worse'}, \`${side === 'below' ? 'above' : 'below'}: ${Number((1 / bound).toPrecision(3))}\``,
            ].join(', '),
          },
  };
}

function describeSide(side, bound, better) {
  if (better === null) return `B's value is ${side === 'below' ? 'lower' : 'higher'}`;
  const lower = side === 'below';
  return lower === (better === 'lower') ? 'better' : 'worse';
}

// One answer per value of the budget axes (`per`, else those of BUDGET_AXES the cells have: cells/axes.js) and
// workload.
function describeAdvice(plan, axes) {
  const { recommend } = plan.experiment;
  if (!recommend) return null;
  const workloads = [...new Set(plan.cells.map((cell) => cell.workload))];
  return {
    within: recommend.within,
    per: [...listBudgetAxes(recommend, axes), ...(workloads.length > 1 ? ['workload'] : [])],
    prefer: recommend.prefer ?? null,
    metrics: workloads.map((workload) => {
      const column = recommend.metric ?? primaryMetrics(workload)[0].column;
      return { workload, metric: column, better: findMetric(column).better ?? null };
    }),
  };
}
