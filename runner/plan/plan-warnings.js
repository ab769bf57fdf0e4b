// Configs that are valid but almost certainly not what was meant: said at --plan and at start, with
// the place in the file, and never a reason to refuse (the person may mean it).
import { countIncludeExtensions } from './expand.js';
import { describeQuestions } from './describe-questions.js';
import { findIgnoredParams } from './ignored-params.js';
import { formatPath } from '../config/diagnostics/paths.js';
import { parseCpuList } from '../../images/workload/lib/cpuset.js';
import { getWorkload } from '../domain/workloads.js';
import { countBudgetCpus, planLoaderLimits } from './loader-limits.js';
import { describeBudgetCpus, describeSharedBudget } from '../domain/shared-loader.js';
import { locateCellValue } from './slots.js';
import { listAxes, listBudgetAxes } from '../cells/axes.js';
import { varyingAxes } from '../cells/cell.js';

/**
 * @param {{ experiment: object, cells: { values: object }[] }} plan
 * @param {{ file?: string, locate?: Function }} config
 * @returns {{ file?: string, line?: number, column?: number, path: string, message: string, hint: string }[]}
 */
export function findPlanWarnings(plan, config) {
  const where = ['experiments', plan.experiment.name];
  const ignored = findIgnoredParams(plan, config.raw?.experiments?.[plan.experiment.name]).map((issue) => ({
    ...issue,
    path: [...where, ...issue.path],
  }));
  const questions = describeQuestions(plan).warnings;
  return [
    ...findUnusableQuotas(plan, where),
    ...findSharedLoaders(plan, config.host, where),
    ...findOpenLoopThroughput(plan, where),
    ...findIncludesExtendingAll(plan.experiment, where),
    ...findIncludeConstants(plan, where),
    ...ignored,
    ...questions,
  ].map(({ path, at, ...warning }) => ({
    file: config.file,
    ...config.locate?.(path, { key: at === 'key' }),
    path: formatPath(path),
    ...warning,
  }));
}

/** `file:line:column: path: warning: message\n  hint`, like an error but marked as a warning. */
export function formatWarning({ file, line, column, path, message, hint }) {
  const where = [file, line, column].filter((part) => part !== undefined).join(':');
  return `${[where, path].filter(Boolean).join(': ')}: warning: ${message}\n  ${hint}`;
}

// An open loop serves the rate it is sent: advice on requests_per_sec (the http workload's first metric) would compare
// the rate asked with itself. A capacity search (`slo:`) has no advice; a `recommend.metric` says what is meant.
function findOpenLoopThroughput(plan, where) {
  const { experiment, cells } = plan;
  const open = cells.some((cell) => cell.workload === 'http' && cell.params?.load === 'open');
  if (!open || experiment.slo || experiment.recommend?.metric) return [];
  // No knob, no advice (verdicts/advice.js): nothing to warn of.
  const budgets = listBudgetAxes(experiment.recommend);
  const knobs = varyingAxes(cells, listAxes(plan)).filter((axis) => axis !== 'workload' && !budgets.includes(axis));
  if (knobs.length === 0) return [];
  return [
    {
      path: [...where, 'recommend'],
      at: 'key',
      message:
        'the advice of an open loop would be on requests_per_sec, which is the rate it is sent at (`open.rate`), the same for every setting that keeps up',
      hint: 'write `recommend: {metric: latency_p99_ms}` (the p99 at your rate), or `slo: {p99_ms: …}` for the most req/s within it',
    },
  ];
}

// A quota can never exceed the CPUs the container may run on: cpus 2 on cpuset "0" is cpus 1.
function findUnusableQuotas({ cells }, where) {
  const seen = new Set();
  const warnings = [];
  for (const { values } of cells) {
    if (values.cpus === undefined || values.cpuset === undefined) continue;
    const count = parseCpuList(values.cpuset).length;
    const key = `${values.cpus}/${values.cpuset}`;
    if (values.cpus <= count || seen.has(key)) continue;
    seen.add(key);
    warnings.push({
      path: where,
      message: `cells with cpus ${values.cpus} and cpuset "${values.cpuset}" get at most ${count} CPU${count === 1 ? '' : 's'}: the quota above the cpuset's ${count} CPU${count === 1 ? '' : 's'} can never be used`,
      hint: `to compare a quota with pinning, give each its own cell, e.g. include: [{cpus: ${count}}, {cpuset: "${values.cpuset}"}] with no cpus/cpuset in the matrix`,
    });
  }
  return warnings;
}

// An http cell's load generator shares the server's CPUs when the host has none to spare beyond the cell's budget
// (loader-limits.js): its CPU time then competes with the server's. Only for `loader.cpuset: auto` (the others were
// chosen), and only where the host is known here (not with engines elsewhere or --slots: their runs record it).
function findSharedLoaders({ experiment, cells }, host, where) {
  if (!host) return [];
  const shared = cells.filter(
    (cell) =>
      getWorkload(cell.workload)?.serves &&
      cell.params.loader?.cpuset === 'auto' &&
      planLoaderLimits({ server: cell.limits, loader: cell.params.loader, hostCpuIds: host.cpuIds }).shared,
  );
  if (shared.length === 0) return [];
  const budgets = [
    ...new Set(
      shared.map((cell) =>
        cell.values.cpuset === undefined
          ? countBudgetCpus(cell.limits, host.cpuIds.length)
          : parseCpuList(cell.values.cpuset).length,
      ),
    ),
  ];
  const listed = [...new Set(shared.map(({ values }) => describeBudgetCpus(values)))];
  const first = shared[0].values;
  return [
    {
      path: first.cpus !== undefined ? locateCellValue(experiment, first, 'cpus') : where,
      message: `${listed.map((budget) => describeSharedBudget(budget, host.cpuIds.length)).join('; ')}, and shares the server's in those http cells (their budget needs ${budgets.join(' or ')} of the ${host.cpuIds.length}); their answer will say so, with no recommendation`,
      hint: `the rows say so (loader_shared) with what the loader took (loader_cpu_ms); to measure that budget cleanly, run on a host with at least ${Math.max(...budgets) + 1} CPUs (\`engines:\`); a \`cpuset\` would not help: it caps the budget at the CPUs it names; to answer for the server with the load generator beside it, ask for that: \`loader: {cpuset: none}\``,
    },
  ];
}

// GitHub's include semantics: an entry that contradicts no combination extends them all. Written to
// add one cell (`{cluster: 2}` beside `workers: [0, 2]`), it silently changes every cell instead.
function findIncludesExtendingAll(experiment, where) {
  return countIncludeExtensions(experiment.matrix, experiment).flatMap(({ extended, of }, index) => {
    if (of < 2 || extended < of) return [];
    const entry = experiment.include[index];
    return [
      {
        path: [...where, 'include', index],
        message: `this include entry extends every one of the matrix's ${of} cells (it contradicts none of their values), so it adds no cell: every cell gets ${JSON.stringify(entry)}`,
        hint: 'to add a cell, give the entry a value of a matrix axis that no cell has (e.g. `workers: 0` where the matrix has `workers: [1, 2]`), or list every cell in `include` with no matrix axis it could extend',
      },
    ];
  });
}

// The same trap spread over several entries: `{cpus: 1, cluster: 2}` and `{cpus: 2, cluster: 2}` over
// `cpus: [1, 2]` extend half the cells each, so together every cell gets cluster 2 and none is without.
function findIncludeConstants({ experiment, cells }, where) {
  const extensions = countIncludeExtensions(experiment.matrix, experiment);
  const includeAxes = [...new Set(experiment.include.flatMap(Object.keys))].filter(
    (axis) => !(axis in experiment.matrix),
  );
  return includeAxes.flatMap((axis) => {
    const entries = experiment.include.map((entry, index) => ({ entry, index })).filter(({ entry }) => axis in entry);
    const values = new Set(cells.map(({ values: cellValues }) => cellValues[axis]));
    const byOneEntry =
      entries.length === 1 && extensions[entries[0].index].extended === extensions[entries[0].index].of;
    if (cells.length < 2 || entries.length < 2 || values.size !== 1 || values.has(undefined) || byOneEntry) return [];
    return [
      {
        path: [...where, 'include', entries[0].index],
        message: `every cell gets ${axis}: ${JSON.stringify([...values][0])} from include entries ${entries.map(({ index }) => `[${index}]`).join(', ')} together (each extends existing cells), so no cell is without it`,
        hint: `to compare with and without ${axis}, add it to the matrix (e.g. \`${axis}: [0, ${JSON.stringify([...values][0])}]\`), or list each cell in \`include\``,
      },
    ];
  });
}
