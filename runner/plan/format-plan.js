// `plan`'s text, from the document `plan --json` prints (api/plan.js describePlan), so the two never disagree: per
// experiment a table of its cells, its claims with the metric each is judged on, the advice's metric, the estimate
// and where it comes from; the user's modules and what only the engine can check of them; then the total.
import { formatDuration } from '../estimate/estimate.js';

const MORE_WORDS = 'adaptive rounds';

/** @param {object} planned  describePlan(...) @returns {string[]} */
export function formatPlan(planned) {
  const lines = [];
  for (const experiment of planned.experiments) lines.push(...formatExperiment(experiment), '');
  if (planned.user_code.length > 0) lines.push(...formatUserCode(planned.user_code), '');
  if (planned.kubernetes) lines.push(formatCluster(planned.kubernetes), '');
  lines.push(formatTotal(planned));
  return lines;
}

function formatExperiment(experiment) {
  const { name, table, planned, up_to_more: more, up_to_more_why: why, repetitions, warmup } = experiment;
  const perCell = `${repetitions} run${repetitions === 1 ? '' : 's'}${warmup ? ` + ${warmup} warm-up${warmup === 1 ? '' : 's'}` : ''}`;
  const resumed = planned < table.length * (repetitions + warmup) ? ` (${planned} still to do)` : '';
  const head = `${name}: ${table.length} cell${table.length === 1 ? '' : 's'} × ${perCell} = ${table.length * (repetitions + warmup)} runs${resumed}`;
  const lines = [more > 0 ? `${head}; ${MORE_WORDS} may add up to ${more} (${why})` : head];
  const shared = Object.entries(experiment.shared).map(([axis, value]) => `${axis}=${value}`);
  if (shared.length > 0) lines.push(`  every cell: ${shared.join(' ')}`);
  lines.push(...formatTable(experiment).map((line) => `  ${line}`));
  for (const load of experiment.loads ?? []) lines.push(`  load: ${load}`);
  if (experiment.slo) lines.push(`  ${experiment.slo}`);
  for (const claim of experiment.claims) lines.push(...formatClaim(claim));
  if (experiment.advice) lines.push(formatAdvice(experiment.advice));
  lines.push(...formatService(experiment.service));
  lines.push(...formatEstimate(experiment.estimate, { planned, more }));
  return lines;
}

function formatTable({ axes, table }) {
  const header = [...axes, 'runs', 'up to', 'each run'];
  const rows = table.map((row) => [
    ...axes.map((axis) => (row.values[axis] === null ? '-' : String(row.values[axis]))),
    String(row.runs),
    row.up_to_more > 0 ? `+${row.up_to_more}` : '',
    formatRunTime(row),
  ]);
  const numeric = header.map((_, column) =>
    rows.every((row) => row[column] === '' || row[column] === '-' || /^[+≥~]?[\d.]/.test(row[column])),
  );
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells) =>
    cells
      .map((cell, column) => (numeric[column] ? cell.padStart(widths[column]) : cell.padEnd(widths[column])))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

// "≥0.2 s": the runner's overhead only (the workload's time not known yet); "4.1 s": measured in an earlier folder;
// "~4.1 s": modelled, or the overhead plus a known workload time.
function formatRunTime({ run_ms: ms, run_ms_from: from, run_ms_lower_bound: lower }) {
  if (ms === null) return '?';
  const seconds = ms >= 10000 ? String(Math.round(ms / 1000)) : (ms / 1000).toFixed(1);
  return `${lower ? '≥' : from === 'measured' ? '' : '~'}${seconds} s`;
}

// The request each app is sent, and where production sets each knob (init's `production:`).
function formatService(service) {
  if (!service) return [];
  const lines = service.requests.map(
    (request) =>
      `  request: ${request.method} ${request.path}${request.body ? ' (with a body)' : ''} to ${request.to}, expecting ${request.status}; sent once before the first run`,
  );
  for (const [axis, where] of Object.entries(service.production ?? {})) lines.push(`  production: ${axis} ← ${where}`);
  for (const axis of service.by_hand)
    lines.push(`  production: ${axis} ← added by hand: no production twin in this service (the advice says so)`);
  return lines;
}

function formatClaim(claim) {
  const metrics = groupMetrics(claim.metrics);
  const lines = [
    `  claim ${claim.claim}: ${claim.axis} ${claim.b} / ${claim.a}, ${claim.expect}, on ${metrics}; ${claim.pairs} pair${claim.pairs === 1 ? '' : 's'} of cells`,
  ];
  lines.push(`    "${claim.says}"`);
  return lines;
}

function formatAdvice(advice) {
  const per = advice.per.length > 0 ? advice.per.join(' and ') : 'experiment (no budget axis)';
  const pick = advice.prefer === 'best' ? 'the best setting' : 'the cheapest setting (fewest threads and processes)';
  return `  advice: per ${per}, ${pick} shown within ${formatPercent(advice.within)} of the best tried (95%), on ${groupMetrics(advice.metrics)}`;
}

// "wall_ms (lower is better)" once for the workloads that share it: "wall_ms (lower is better) for pbkdf2, argon2".
function groupMetrics(metrics) {
  const groups = new Map();
  for (const { workload, metric, better } of metrics) {
    const key = `${metric} (${better ? `${better} is better` : 'neither way is better'})`;
    groups.set(key, [...(groups.get(key) ?? []), workload]);
  }
  if (groups.size === 1) return [...groups.keys()][0];
  return [...groups].map(([key, workloads]) => `${key} for ${workloads.join(', ')}`).join('; ');
}

function formatEstimate(estimate, { planned, more }) {
  const {
    planned_ms: ms,
    up_to_more_ms: moreMs,
    lower_bound: lower,
    cells,
    lanes,
    bench,
    known_workloads: known,
  } = estimate;
  if (planned === 0) return ['  time: nothing left to run'];
  if (ms === null)
    return [
      `  time: not estimated (no benchmark figures: \`npm run bench -- --docs\` writes them, and no earlier folder ran this work)`,
    ];
  const sources = formatSources(estimate.sources, cells);
  const rest = cells - estimate.measured_cells - estimate.model_cells;
  if (rest > 0 && bench) {
    const parts = [
      `the runner's overhead, ${Math.round(bench.overhead_ms)} ms a run (npm run bench, ${bench.written})`,
    ];
    if (known.length > 0) parts.push(`${known.join(', ')}'s warm-up and measured seconds`);
    if (lower) parts.push("the workload's own time, not known before a folder has run this work");
    sources.push(`${rest === cells ? 'each run' : `the other ${rest}`}: ${parts.join(' + ')}`);
  }
  const parallel = lanes > 1 ? `, ${lanes} runs at once` : '';
  const lines = [`  time: ${lower ? 'at least ' : 'about '}${formatDuration(ms)}${parallel}: ${sources.join('; ')}`];
  if (more > 0 && moreMs !== null)
    lines.push(
      `  ${MORE_WORDS}: up to ${more} more runs, ${lower ? 'at least ' : 'about '}${formatDuration(moreMs)} more`,
    );
  if (estimate.likely_unknown) lines.push(`  likely: not known: ${estimate.likely_unknown}`);
  return lines;
}

// "every cell as measured in results/x-…", "3 of 8 cells by the capacity model calibrated on the same work in …";
// the figures shipped with the package as one source, naming their folders and the host they were measured on.
function formatSources(sources, cells) {
  const count = (n) => (n === cells ? 'every cell' : `${n} of ${cells} cells`);
  const own = sources
    .filter((source) => !source.shipped)
    .flatMap(({ folder, measured_cells: measured, model_cells: modelled }) => [
      ...(measured > 0 ? [`${count(measured)} as measured in ${folder} (the median time of a run there)`] : []),
      ...(modelled > 0 ? [`${count(modelled)} by the capacity model calibrated on the same work in ${folder}`] : []),
    ]);
  const shipped = sources.filter((source) => source.shipped);
  if (shipped.length === 0) return own;
  const total = (key) => shipped.reduce((sum, source) => sum + source[key], 0);
  const folders = shipped
    .map((source) => `${source.folder}${shipped.length > 1 ? ` ${source.measured_cells + source.model_cells}` : ''}`)
    .join(', ');
  const hosts = [
    ...new Set(shipped.map(({ host }) => `${host.cpus} CPU${host.cpus === 1 ? '' : 's'} of ${host.cpu_model}`)),
  ];
  const how = [
    ...(total('measured_cells') > 0 ? [`${count(total('measured_cells'))} as measured`] : []),
    ...(total('model_cells') > 0
      ? [`${count(total('model_cells'))} by the capacity model calibrated on the same work`]
      : []),
  ];
  return [
    ...own,
    `${how.join(' and ')} in the figures shipped with node-threads-lab (${folders}; measured on ${hosts.join(' and ')})`,
  ];
}

function formatUserCode(modules) {
  return [
    'Your code (checked on this host; the preflight in the container checks the rest before the first run):',
    ...modules.flatMap((module) => [
      `  ${module.file} (${module.format}), export \`${module.export}\`${module.kind && module.kind !== 'unknown' ? `: ${module.kind === 'class' ? 'a class' : `a ${module.kind}`}` : ''}`,
      `    only the engine can check: ${module.engine.join('; ')}`,
    ]),
  ];
}

function formatCluster({ context, namespace, node_pool: pool, lanes_up_to: lanes, lanes_why: why }) {
  const selector = Object.entries(pool)
    .map(([key, value]) => `${key}=${value}`)
    .join(',');
  const where = [
    `context ${context ?? "(the kubeconfig's current one)"}`,
    `namespace ${namespace ?? "(the context's)"}`,
    selector ? `node pool ${selector}` : 'any node',
  ];
  return (
    `on Kubernetes (${where.join(', ')}): up to ${lanes} run${lanes === 1 ? '' : 's'} at once (${why}); ` +
    "each run also waits for its pod to start, which the time below does not count (docs/kubernetes.md's figures)"
  );
}

function formatTotal(planned) {
  const { count, up_to_more: more, estimate, seed } = planned;
  const time =
    estimate.planned_ms === null
      ? ''
      : `, ${estimate.lower_bound ? 'at least ' : 'about '}${formatDuration(estimate.planned_ms)}`;
  const extra =
    more > 0
      ? ` (up to ${count + more} with ${MORE_WORDS}${estimate.up_to_more_ms === null ? '' : `, ${formatDuration(estimate.planned_ms + estimate.up_to_more_ms)}`})`
      : '';
  // A race's start rounds are not its length: say how far races went before, and where.
  const likely =
    estimate.likely_runs === null || estimate.likely_runs === undefined
      ? ''
      : `; likely ${estimate.likely_runs} runs${estimate.likely_ms === null ? '' : `, about ${formatDuration(estimate.likely_ms)}`}, as the races of ${formatFolders(estimate.likely_from)} went`;
  const reruns =
    planned.most_reruns > 0
      ? `, and up to ${planned.most_reruns} re-runs of disturbed runs (\`max_reruns\` a cell)`
      : '';
  const waiting =
    planned.most_busy_wait_ms > 0
      ? `, and up to ${formatDuration(planned.most_busy_wait_ms)} waiting for a quiet host if runs keep being disturbed (\`busy_wait\`)`
      : '';
  return `${count} runs${extra}${time}${likely}${reruns}${waiting}; seed ${seed} (--seed ${seed} gives this order again; --verbose lists every run)`;
}

function formatPercent(fraction) {
  return `${Number((fraction * 100).toPrecision(3))}%`;
}

// docs/settling/race-1, docs/settling/race-2 → docs/settling/race-1 and race-2: one folder's path said once.
function formatFolders(folders) {
  const [first, ...rest] = folders;
  const base = first.slice(0, first.lastIndexOf('/') + 1);
  const names = [first, ...rest.map((folder) => (folder.startsWith(base) ? folder.slice(base.length) : folder))];
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
