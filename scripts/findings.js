#!/usr/bin/env node
// docs/findings.md, generated: the prose of docs/findings.src.md with every number filled in from the results
// folders (one per experiment of published-experiments.yml, as `npm run matrix -- --config
// published-experiments.yml --out docs/findings` writes them, or the newest `<experiment>-<UTC time>` folder
// of a results root such as results/). Nothing measured is typed by hand; running this again on the same
// folders gives the same bytes, charts included. The README's block between the findings:headlines markers
// is rewritten from the same verdicts.
//
//   node scripts/findings.js [--results DIR] [--config FILE] [--source FILE] [--out FILE] [--readme FILE]
//                            [--ledger FILE]
//
// Directives in the source, each an HTML comment on a line of its own:
//   <!-- findings:runs -->                          which folders, when, which revision, which design
//   <!-- findings:claims EXPERIMENT -->             the experiment's claims (from the config) with their verdicts
//   <!-- findings:table EXPERIMENT metric=M rows=AXIS [columns=AXIS] [where=AXIS:VALUE] -->
//                                                   median [95% interval of the median] (n) per cell; M is a
//                                                   column, cpu_ms_per_response (cpu_total_ms per response) or
//                                                   cpu_per_sec (cpu_total_ms ÷ wall_ms: the CPU the cells got)
//   <!-- findings:chart EXPERIMENT metric=M x=AXIS [series=AXIS] [where=AXIS:VALUE] -->
//                                                   an SVG in findings/charts/: every run a dot, medians joined
//   <!-- findings:order EXPERIMENT [rows=AXIS] [columns=AXIS] -->
//                                                   per cell, the waves of completions and the k-th completion time
//   <!-- findings:ratio metric=M a=EXPERIMENT:AXIS=V,AXIS=V b=EXPERIMENT:AXIS=V,... -->
//                                                   B / A with its 95% interval across two experiments' cells (what a
//                                                   claim cannot compare: a parameter, not an axis, differs)
//   <!-- findings:increment EXPERIMENT metric=M axis=AXIS a=V b=V [where=AXIS:VALUE] -->
//                                                   (median at b − median at a) / (b − a): what one more of AXIS
//                                                   adds (a claim judges ratios; "≈ 6 MB a thread" is a difference)
//   <!-- findings:figure EXPERIMENT post=NNN quote="31,836 KB" what="…" metric=M [where=AXIS:V,…] [by=AXIS]
//        [divide=N] [axis=AXIS a=V b=V] -->             one row of a "the post's figure beside ours" table: the
//                                                   post's figure as printed (`npm run check:quotes` finds it in
//                                                   the post), in the metric's unit, beside our median with its
//                                                   interval and ours ÷ the post's (scripts/lib/findings-twins.js)
//   <!-- findings:figures EXPERIMENT -->             the post's figures its claims test (`figures:`), each judged here
//   <!-- findings:deviations -->                      every claim's deviations from its post, from its own fields
//   <!-- findings:model-ratios -->                    every claim comparison's model ratio beside the measured one:
//                                                   the share within 10%, and where the model could be wrong
//   <!-- findings:claims-summary -->                  every claim's own class with its reason, the counts by claim
//                                                   and by comparison (the README's headline lines say the counts)
//
// A claim with `control: true` is the design's check, not a post's claim: marked in its table, counted apart in
// the README headline.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from '../runner/stats/statistics.js';
import { parseCommandLine, runCommand } from '../runner/commands/command-line.js';
import { LabError } from '../runner/errors.js';
import { loadConfig } from '../runner/config/load-config.js';
import { readResults } from '../runner/results/read-results.js';
import { judgeResults } from '../runner/report/verdicts.js';
import { readParamDefaults } from '../runner/domain/workloads.js';
import { orderValues } from '../runner/cells/cell.js';
import { findMetric } from '../runner/domain/metrics.js';
import { compareUnpaired } from '../runner/verdicts/compare-pair.js';
import { CLASSES } from '../runner/verdicts/capacity-class.js';
import { CHARTS_DIR, renderChart, renderOrder, selectRuns } from './lib/findings-figures.js';
import { renderFigure } from './lib/findings-twins.js';
import { DIRECTIVE, parseArgs } from './lib/findings-directives.js';
import { escapeCell, formatCell, formatNumber } from './lib/findings-format.js';
import { describeFixed, JUDGED_AFTER_CHANGE, readLedger } from './lib/findings-fixed.js';
import { countClaimFigures, renderClaimFigures } from './lib/findings-claim-figures.js';
import { DEVIATIONS_HEAD, listDeviations, readRecommendedRuns } from './lib/findings-deviations.js';
import { renderModelRatios } from './lib/findings-model.js';
import { summarizeCells } from '../runner/report/summary.js';

const PROJECT_DIR = fileURLToPath(new URL('../', import.meta.url));
// When each claim version was written (scripts/claims-history.js, from git).
const DEFAULT_LEDGER = 'docs/findings/claims-ledger.json';

const USAGE = `Usage: node scripts/findings.js [--results DIR] [--config FILE] [--source FILE] [--out FILE] [--readme FILE]
                                  [--ledger FILE]

  --results DIR   DIR/<experiment>, or the newest DIR/<experiment>-<UTC time> (default: docs/findings)
  --config FILE   the experiments and their claims (default: published-experiments.yml)
  --source FILE   the prose with directives (default: docs/findings.src.md)
  --out FILE      where to write; charts go to its folder's findings/charts/ (default: docs/findings.md)
  --readme FILE   whose findings:headlines block to rewrite (default: README.md; "none" to leave it)
  --ledger FILE   when each claim version was written (default: docs/findings/claims-ledger.json, written by
                  \`npm run claims:history\` from git)`;

export async function main(argv, { stdout = process.stdout } = {}) {
  const { values } = parseCommandLine(argv, {
    usage: USAGE,
    options: {
      results: { type: 'string', default: join(PROJECT_DIR, 'docs/findings') },
      config: { type: 'string', default: join(PROJECT_DIR, 'published-experiments.yml') },
      source: { type: 'string', default: join(PROJECT_DIR, 'docs/findings.src.md') },
      out: { type: 'string', default: join(PROJECT_DIR, 'docs/findings.md') },
      readme: { type: 'string', default: join(PROJECT_DIR, 'README.md') },
      ledger: { type: 'string', default: join(PROJECT_DIR, DEFAULT_LEDGER) },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    stdout.write(`${USAGE}\n`);
    return 0;
  }
  const out = resolve(values.out);
  const { text, charts, headlines } = await generateFindings({
    resultsDir: resolve(values.results),
    configFile: resolve(values.config),
    source: readFileSync(resolve(values.source), 'utf8'),
    linkBase: dirname(out),
    ledgerFile: resolve(values.ledger),
  });
  writeFileSync(out, text);
  removeStaleCharts(dirname(out), charts);
  for (const [path, svg] of charts) {
    mkdirSync(dirname(join(dirname(out), path)), { recursive: true });
    writeFileSync(join(dirname(out), path), svg);
  }
  stdout.write(`wrote ${out} and ${charts.size} chart(s)\n`);
  if (values.readme !== 'none') {
    const readme = resolve(values.readme);
    writeFileSync(readme, replaceHeadlines(readFileSync(readme, 'utf8'), headlines));
    stdout.write(`wrote the findings:headlines block of ${readme}\n`);
  }
  return 0;
}

// A chart the page no longer names would linger beside it, showing data the page does not.
function removeStaleCharts(pageDir, charts) {
  const dir = join(pageDir, CHARTS_DIR);
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir)) {
    if (entry.endsWith('.svg') && !charts.has(`${CHARTS_DIR}/${entry}`)) rmSync(join(dir, entry));
  }
}

/**
 * The source with each directive replaced by what the folders say, the charts it names (path relative to the
 * page → SVG) and the README's headline lines.
 * @returns {Promise<{ text: string, charts: Map<string, string>, headlines: string[] }>}
 */
export async function generateFindings({
  resultsDir,
  configFile,
  source,
  linkBase,
  ledgerFile = join(PROJECT_DIR, DEFAULT_LEDGER),
}) {
  const config = await loadConfig(configFile);
  const ledger = readLedger(ledgerFile);
  const context = { resultsDir, config, linkBase, ledger, folders: new Map(), charts: new Map() };
  const lines = source.split('\n').flatMap((line) => {
    const match = DIRECTIVE.exec(line.trim());
    if (!match) return [line];
    const [, kind, args = ''] = match;
    const render = RENDERERS[kind];
    if (!render)
      throw new LabError('ERR_USAGE', `unknown directive findings:${kind}`, {
        hint: `expected one of ${Object.keys(RENDERERS).join(', ')}`,
      });
    return render(parseArgs(args), context);
  });
  return { text: lines.join('\n'), charts: context.charts, headlines: renderHeadlines(context) };
}

const RENDERERS = {
  runs: renderRuns,
  claims: renderClaims,
  table: renderTable,
  chart: renderChartDirective,
  order: renderOrderDirective,
  ratio: renderRatio,
  increment: renderIncrement,
  figure: renderFigureDirective,
  'claims-summary': renderClaimsSummary,
  figures: renderFiguresDirective,
  deviations: renderDeviations,
  'model-ratios': renderModelRatiosDirective,
};

function experimentOf(context, name) {
  const experiment = context.config.experiments.find((each) => each.name === name);
  if (!experiment) throw new LabError('ERR_USAGE', `${name} is not an experiment of the config`);
  return experiment;
}

/** The experiment's folder, read once; null when it has not been run. */
function folderOf(context, name) {
  if (!context.folders.has(name)) {
    const dir = locateFolder(context.resultsDir, name);
    context.folders.set(name, dir ? readResults(dir) : null);
  }
  return context.folders.get(name);
}

/** DIR/<experiment> (as --out writes it), else the newest DIR/<experiment>-<UTC time> (as results/ holds them). */
export function locateFolder(resultsDir, name) {
  const exact = join(resultsDir, name);
  if (existsSync(join(exact, 'runs.csv'))) return exact;
  if (!existsSync(resultsDir)) return null;
  const stamped = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-\\d{8}T\\d{6}Z$`);
  const [newest] = readdirSync(resultsDir)
    .filter((entry) => stamped.test(entry) && existsSync(join(resultsDir, entry, 'runs.csv')))
    .sort()
    .reverse();
  return newest ? join(resultsDir, newest) : null;
}

function renderRuns(_args, context) {
  const lines = [
    '| experiment | folder | runs ok / all | started (UTC) | minutes | revision | design |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const experiment of context.config.experiments) {
    const folder = folderOf(context, experiment.name);
    if (!folder) {
      lines.push(`| ${experiment.name} | — | not run yet | | | | |`);
      continue;
    }
    const { info, runs } = folder;
    const ok = runs.filter((run) => run.status === 'ok' && !run.warmup).length;
    const all = runs.filter((run) => !run.warmup).length;
    const minutes =
      info?.started_at && info?.finished_at
        ? ((Date.parse(info.finished_at) - Date.parse(info.started_at)) / 60000).toFixed(1)
        : '';
    const revision = info?.project?.git_revision
      ? `${info.project.git_revision.slice(0, 7)}${info.project.git_dirty ? ' (uncommitted changes)' : ''}`
      : '';
    lines.push(
      `| ${experiment.name} | [${relative(context.linkBase, folder.dir)}/](${relative(context.linkBase, folder.dir)}/) | ${ok} / ${all} | ${info?.started_at?.slice(0, 16).replace('T', ' ') ?? ''} | ${minutes} | ${revision} | ${describeDesign(experiment, info)} |`,
    );
  }
  return [
    ...lines,
    '',
    ...describeSpan(context),
    ...describeDirty(context),
    ...describeHosts(experimentFolders(context).map(({ info }) => info)).map((host) => `Host: ${host}.`),
  ];
}

// Which folders ran from a work tree with uncommitted changes: their revision does not say all of their code.
function describeDirty(context) {
  const dirty = context.config.experiments.filter(
    (experiment) => folderOf(context, experiment.name)?.info?.project?.git_dirty,
  );
  if (dirty.length === 0) return ['Every folder ran at a committed revision, its work tree clean.', ''];
  const named = dirty.map(
    (experiment) => `${experiment.name} (${folderOf(context, experiment.name).info.project.git_revision.slice(0, 7)})`,
  );
  return [
    `Ran from a work tree with uncommitted changes, so its revision does not name all of its code: ${named.join(', ')}; every other folder ran at a committed revision, its work tree clean.`,
    '',
  ];
}

// How long the whole file took: from the first experiment's start to the last one's end, and in how many
// invocations and revisions, so "one invocation of one revision" can be checked on the page itself.
function describeSpan(context) {
  const span = measureSpan(context);
  return span ? [`${span.experiments} experiments, ${span.text}.`, ''] : [];
}

// The config's experiments that have a folder: a recheck folder a table names is not part of the run.
function experimentFolders(context) {
  return context.config.experiments.map((experiment) => folderOf(context, experiment.name)).filter(Boolean);
}

function measureSpan(context) {
  const infos = experimentFolders(context)
    .map(({ info }) => info)
    .filter((info) => info?.started_at && info?.finished_at);
  if (infos.length === 0) return null;
  const starts = infos.map((info) => Date.parse(info.started_at));
  const ends = infos.map((info) => Date.parse(info.finished_at));
  const minutes = ((Math.max(...ends) - Math.min(...starts)) / 60000).toFixed(0);
  const invocations = new Set(infos.map((info) => info.seed ?? info.started_at)).size;
  const revisions = new Set(
    infos.map((info) => `${info.project?.git_revision ?? '?'}${info.project?.git_dirty ? '+' : ''}`),
  ).size;
  return {
    experiments: infos.length,
    text: `${minutes} minutes from the first start to the last end, ${invocations === 1 ? 'one invocation' : `${invocations} invocations`} of ${revisions === 1 ? 'one revision' : `${revisions} revisions`}`,
  };
}

// A folder measured with another design than the file's today is said to be so, key by key: its numbers
// answer the question as it was then asked.
// Parameters count per workload the experiment runs, key by key: a parameter added since (with its default,
// what the old code did implicitly) is no change of design; a changed value is.
function describeDesign(experiment, info) {
  const recorded = info?.config;
  if (!recorded) return 'unknown (no run.json)';
  const keys = ['matrix', 'include', 'exclude', 'memory'];
  const changed = keys
    .filter((key) => JSON.stringify(recorded[key] ?? null) !== JSON.stringify(experiment[key] ?? null))
    .map((key) => `\`${key}\``);
  for (const workload of experiment.matrix.workload ?? []) {
    const now = experiment.params?.[workload] ?? {};
    const then = recorded.params?.[workload] ?? {};
    const defaults = readParamDefaults(workload);
    for (const key of Object.keys(now)) {
      const before = Object.hasOwn(then, key) ? then[key] : defaults[key];
      if (JSON.stringify(comparable(before, now[key], defaults[key])) !== JSON.stringify(now[key]))
        changed.push(`\`${workload}.${key}\``);
    }
  }
  return changed.length === 0 ? 'as in the file' : `earlier: ${changed.join(', ')} differ`;
}

// An object parameter recorded before a key of it existed: that key had its default.
function comparable(before, now, fallback) {
  if (before === null || typeof before !== 'object' || Array.isArray(before)) return before;
  return Object.fromEntries(
    Object.keys(now ?? {}).map((key) => [key, Object.hasOwn(before, key) ? before[key] : fallback?.[key]]),
  );
}

// One line per machine (CPUs, kernel, Docker), with the Node.js versions of every folder run on it: an experiment
// that ran one Node version is not another host.
function describeHosts(infos) {
  const machines = new Map();
  for (const info of infos) {
    if (!info?.host) continue;
    const { cpus, cpu_model: model, kernel } = info.host;
    const docker = info.docker?.version?.Version;
    const machine = [`${cpus} CPUs (${model})`, `kernel ${kernel}`, docker && `Docker ${docker}`]
      .filter(Boolean)
      .join(', ');
    const nodes = machines.get(machine) ?? new Set();
    for (const image of Object.values(info.images ?? {})) {
      const version = image?.nodeVersion ?? image?.node_version;
      if (version) nodes.add(version);
    }
    machines.set(machine, nodes);
  }
  const byVersion = (a, b) => a.localeCompare(b, 'en', { numeric: true });
  return [...machines].map(([machine, nodes]) =>
    nodes.size ? `${machine}, Node.js ${[...nodes].sort(byVersion).join(', ')} in the containers` : machine,
  );
}

function renderClaims({ name }, context) {
  const claims = experimentOf(context, name).claims ?? [];
  if (claims.length === 0) return ['(no claims)'];
  const folder = folderOf(context, name);
  if (!folder) return claims.map((claim) => `- **not run yet**: "${labelClaim(claim)}"`);
  const { rows, missing } = judgeClaims(claims, folder, context.ledger);
  const lines = [
    '| claim | compared | B / A [95% CI] | model | expected | class (verdict) | beside (B / A [95% CI], model; not judged) |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const row of rows) {
    lines.push(
      `| ${escapeCell(labelClaim(row))} | ${escapeCell(`${row.metric}: ${row.axis} ${row.a} → ${row.b}${row.where ? ` at ${row.where}` : ''}`)} | ${formatRatio(row)} | ${formatModel(row)} | ${escapeCell(row.expect)} | ${escapeCell(formatClass(row))} | ${escapeCell(formatBeside(row))} |`,
    );
  }
  for (const claim of missing)
    lines.push(
      `| ${escapeCell(labelClaim(claim))} | ${claim.metric} | not measured: the folder's design predates this column | | | **not checked** |`,
    );
  return lines;
}

// A control is the design's check, not the post's claim: said so wherever the claim is shown.
function labelClaim({ says, control }) {
  return control ? `(control) ${says}` : says;
}

/**
 * The claim rows (one per claim and combination) the folder's runs give, and the claims on columns it lacks; each row
 * says whether its claim was fixed before the runs (`fixed`, scripts/lib/findings-fixed.js).
 */
function judgeClaims(claims, folder, ledger) {
  const missing = claims.filter((claim) => claim.metric && !folder.columns.includes(claim.metric));
  const checkable = claims.filter((claim) => !missing.includes(claim));
  const verdicts = judgeResults(folder, { claims: checkable });
  const marked = verdicts.claims.map((row) => ({
    ...row,
    control: checkable[row.claim - 1].control === true,
    fixed: describeFixed(checkable[row.claim - 1], folder, ledger),
  }));
  return {
    rows: marked.filter((each) => each.kind === 'claim'),
    overall: marked.filter((each) => each.kind === 'claim-overall'),
    missing,
  };
}

// The class leads (what the host could show decides how to read the verdict); the interval's own verdict follows.
function formatClass(row) {
  const settle = row.runs_needed ? `; ≈ ${row.runs_needed} runs per cell would settle it` : '';
  const note = row.class !== 'holds' && row.class !== row.verdict && row.class_note ? `; ${row.class_note}` : '';
  const changed = row.fixed?.marked ? ` — ${JUDGED_AFTER_CHANGE}` : '';
  return `**${row.class}** (${row.verdict}${settle}${note})${changed}`;
}

// The claim's other metrics of the same cells: what else moved, shown and never judged.
function formatBeside(row) {
  return (row.beside ?? [])
    .map(
      (each) =>
        `${each.metric} ${formatRatio(each)}${Number.isFinite(each.model_ratio) ? `, model ${formatNumber(each.model_ratio)}` : ''}`,
    )
    .join('; ');
}

function formatModel(row) {
  return Number.isFinite(row.model_ratio) ? formatNumber(row.model_ratio) : '—';
}

function formatRatio(row) {
  const { ratio: estimate, ci95_low: low, ci95_high: high, n_a: nA, n_b: nB } = row.comparison ?? {};
  return Number.isFinite(low)
    ? `${formatNumber(estimate)} [${formatNumber(low)}, ${formatNumber(high)}] (n ${nA}/${nB})`
    : `no interval (n ${nA ?? 0}/${nB ?? 0})`;
}

// Every claim the folders judge: its overall row (the claim's own class) and its rows per combination, by experiment.
function judgeAll(context) {
  return context.config.experiments.flatMap((experiment) => {
    const folder = experiment.claims?.length ? folderOf(context, experiment.name) : null;
    if (!folder) return [];
    const { rows, overall } = judgeClaims(experiment.claims, folder, context.ledger);
    return overall.map((claim) => ({
      experiment: experiment.name,
      claim,
      rows: rows.filter((row) => row.claim === claim.claim),
    }));
  });
}

// "10 hold, 1 contradicted, …": every class with a count, in CLASSES order; holds and contradicted always.
function countClasses(classes) {
  return CLASSES.map((name) => [name, classes.filter((each) => each === name).length])
    .filter(([name, count]) => count > 0 || name === 'holds' || name === 'contradicted')
    .map(([name, count]) => `${count} ${name === 'holds' ? 'hold' : name}`)
    .join(', ');
}

function describeCounts(context) {
  const judged = judgeAll(context);
  const published = judged.filter(({ claim }) => !claim.control);
  const controls = judged.filter(({ claim }) => claim.control);
  const hosts = [
    ...new Set(
      experimentFolders(context)
        .map(({ info }) => info?.host?.cpus)
        .filter(Boolean),
    ),
  ];
  const span = measureSpan(context);
  const waiting = context.config.experiments
    .filter((experiment) => !folderOf(context, experiment.name))
    .flatMap((experiment) => (experiment.claims ?? []).filter((claim) => !claim.control).map(() => experiment.name));
  const comparisons = published.flatMap(({ rows }) => rows);
  const controlRows = controls.flatMap(({ rows }) => rows);
  return {
    judged,
    where: `${hosts.map((cpus) => `${cpus} CPUs`).join(', ')}${span ? `; ${span.text}` : ''}`,
    claims: `${published.length} published claims: **${countClasses(published.map(({ claim }) => claim.class))}**${describeChanged(published)}`,
    comparisons: `judged in ${comparisons.length} comparisons (a claim checked at several CPUs, placements or Node versions is one claim with its own class): ${countClasses(comparisons.map((row) => row.class))}`,
    controls: controls.length
      ? `${controls.length} controls (checks of the design, not the posts' claims): ${countClasses(controls.map(({ claim }) => claim.class))}, in ${controlRows.length} comparisons`
      : '',
    figures: countClaimFigures(
      published.map(({ claim }) => claim),
      CLASSES,
    ),
    waiting: waiting.length
      ? `${waiting.length} published claims not run yet (${[...new Set(waiting)].join(', ')})`
      : '',
  };
}

// How many verdicts read a claim their runs were not made for: the class stands, marked, and counted here.
function describeChanged(judged) {
  const changed = judged.filter(({ claim }) => claim.fixed?.marked).length;
  return changed === 0
    ? '; every one fixed before its runs'
    : `; ${changed} of them ${JUDGED_AFTER_CHANGE} (written or changed after their runs: re-run to judge them as fixed)`;
}

// The README's headline: three lines, the counts by claim first; the list is findings.md's (findings:claims-summary).
function renderHeadlines(context) {
  const counts = describeCounts(context);
  if (counts.judged.length === 0)
    return [
      'No published experiment has been run yet: `npm run matrix -- --config published-experiments.yml --out docs/findings`, then `npm run findings`.',
    ];
  return [
    `Re-run here (${counts.where}): ${counts.claims}.`,
    `Those claims were ${counts.comparisons}${counts.controls ? `; ${counts.controls}` : ''}${counts.figures ? `; ${counts.figures}` : ''}${counts.waiting ? `; ${counts.waiting}` : ''}.`,
    "[docs/findings.md](docs/findings.md) gives each claim's class with its reason, the post's figures beside ours, the post's design, ours, and every deviation.",
  ];
}

// findings.md's list: the counts, then every claim with its own class and reason, and the combinations it was judged
// in.
function renderClaimsSummary(_args, context) {
  const counts = describeCounts(context);
  if (counts.judged.length === 0) return ['No published experiment has been run yet.'];
  const lines = [
    `${counts.claims}; ${counts.comparisons}${counts.controls ? `; ${counts.controls}` : ''}${counts.figures ? `; ${counts.figures}` : ''}${counts.waiting ? `; ${counts.waiting}` : ''}.`,
    '',
    '| claim | its class, and why | B / A [95% CI] per combination (model) | written, and its runs |',
    '| --- | --- | --- | --- |',
  ];
  for (const { experiment, claim, rows } of counts.judged) {
    const reason = claim.class_note && claim.class !== 'holds' ? ` — ${claim.class_note}` : '';
    const outside =
      claim.outside?.length && claim.class !== "outside the post's conditions"
        ? `; outside the post's conditions: ${claim.outside.join(', ')}`
        : '';
    const combos = rows
      .map(
        (row) =>
          `${row.where ? `${row.where}: ` : ''}${formatRatio(row)}${Number.isFinite(row.model_ratio) ? ` (model ${formatNumber(row.model_ratio)})` : ''}${row.class === claim.class ? '' : ` ${row.class}`}${row.beside?.length ? `; beside, not judged: ${formatBeside(row)}` : ''}`,
      )
      .join('; ');
    lines.push(
      `| ${escapeCell(`${experiment}: ${labelClaim(claim)}`)} | ${escapeCell(`**${claim.class}** (${claim.verdict}${outside})${reason}`)} | ${escapeCell(`${claim.metric} ${claim.axis} ${claim.a} → ${claim.b}: ${combos}`)} | ${escapeCell(claim.fixed?.text ?? '')} |`,
    );
  }
  return lines;
}

// Every model ratio beside its measurement, and how many agree within 10% (scripts/lib/findings-model.js).
function renderModelRatiosDirective(_args, context) {
  return renderModelRatios(
    context.config.experiments.flatMap((experiment) => {
      const folder = experiment.claims?.length ? folderOf(context, experiment.name) : null;
      if (!folder) return [];
      const { rows } = judgeClaims(experiment.claims, folder, context.ledger);
      const { cells } = summarizeCells(folder);
      return [{ experiment: experiment.name, rows, cells, hostCpus: folder.info?.host?.cpus ?? null }];
    }),
  );
}

// Every deviation of every claim, from its own fields (scripts/lib/findings-deviations.js).
function renderDeviations(_args, context) {
  const recommended = readRecommendedRuns();
  const lines = context.config.experiments.flatMap((experiment) => {
    const folder = experiment.claims?.length ? folderOf(context, experiment.name) : null;
    if (!folder) return [];
    const { rows } = judgeClaims(experiment.claims, folder, context.ledger);
    return experiment.claims.flatMap((claim, index) =>
      listDeviations(
        claim,
        experiment,
        rows.filter((row) => row.claim === index + 1),
        recommended,
      ).map((line) => line.replace(/^\| /, `| ${experiment.name}: `)),
    );
  });
  return lines.length ? [...DEVIATIONS_HEAD, ...lines] : ['(no claim names a deviation yet)'];
}

// The figures the experiment's claims test (their `figures:`), each judged here.
function renderFiguresDirective({ name }, context) {
  const experiment = experimentOf(context, name);
  const folder = folderOf(context, name);
  if (!folder) return ['(not run yet)'];
  return renderClaimFigures(judgeClaims(experiment.claims ?? [], folder, context.ledger).overall);
}

function renderFigureDirective(args, context) {
  experimentOf(context, args.name);
  return renderFigure(args, folderOf(context, args.name));
}

const HEADLINES = /(<!-- findings:headlines:start -->)[\s\S]*?(<!-- findings:headlines:end -->)/;

/** The README with its headline block replaced; a README without the markers is an error, not a silent no-op. */
export function replaceHeadlines(readme, headlines) {
  if (!HEADLINES.test(readme))
    throw new LabError(
      'ERR_USAGE',
      'the README has no <!-- findings:headlines:start --> … <!-- findings:headlines:end --> block',
      { hint: 'add the two markers where the headlines belong, or pass --readme none' },
    );
  return readme.replace(HEADLINES, (_, start, end) => `${start}\n${headlines.join('\n')}\n${end}`);
}

function renderChartDirective(args, context) {
  const folder = folderOf(context, args.name);
  if (!folder) return ['(chart: not run yet)'];
  if (!folder.columns.includes(args.metric)) return [`(\`${args.metric}\` was not measured in this folder)`];
  const { path, svg, lines } = renderChart(args, folder);
  context.charts.set(path, svg);
  return lines;
}

// One line: the two cells, their metric's ratio with its 95% interval (Welch on the logs, as claims have it).
function renderRatio({ metric, a, b }, context) {
  const [sideA, sideB] = [a, b].map((spec) => {
    const [name, where = ''] = spec.split(':');
    const pairs = where
      .split(',')
      .filter(Boolean)
      .map((pair) => pair.split('='));
    const folder = folderOf(context, name);
    const values = folder
      ? selectRuns(folder)
          .filter((run) => pairs.every(([axis, value]) => String(run[axis]) === value))
          .map((run) => run[metric])
      : null;
    return {
      label: `${name}${pairs.length ? ` (${pairs.map(([axis, value]) => `${axis} ${value}`).join(', ')})` : ''}`,
      values,
    };
  });
  if (!sideA.values || !sideB.values) return ['(ratio: not run yet)'];
  const comparison = compareUnpaired(sideA.values, sideB.values);
  return [`- ${metric}, ${sideB.label} ÷ ${sideA.label}: ${formatRatio({ comparison })}`];
}

// What one more of an axis adds to a metric, from the two cells' medians (each shown with its interval in the
// tables): a difference per step, which no claim (a ratio) can state.
function renderIncrement({ name, metric, axis, a, b, where }, context) {
  const folder = folderOf(context, name);
  if (!folder) return ['(increment: not run yet)'];
  const runs = selectRuns(folder, where);
  const medianAt = (value) => {
    const sample = runs
      .filter((run) => String(run[axis]) === value)
      .map((run) => run[metric])
      .filter(Number.isFinite);
    return sample.length === 0 ? null : { n: sample.length, value: median(sample) };
  };
  const [low, high] = [medianAt(a), medianAt(b)];
  if (!low || !high) return [`(increment: no ${metric} at ${axis} ${low ? b : a})`];
  const steps = Number(b) - Number(a);
  const at = where ? ` at ${where.replace(':', ' ')}` : '';
  const unit = findMetric(metric).unit;
  return [
    `- ${metric}, ${axis} ${a} → ${b}${at}: (${formatNumber(high.value)} − ${formatNumber(low.value)}) ÷ ${steps} = **${formatNumber((high.value - low.value) / steps)}${unit ? ` ${unit}` : ''} for each one more in \`${axis}\`** (medians of n ${low.n} and ${high.n})`,
  ];
}

function renderOrderDirective(args, context) {
  const folder = folderOf(context, args.name);
  return folder ? renderOrder(args, folder) : ['(not run yet)'];
}

// What no single column says but two do, for a table: the CPU time the server's cgroup used per response it
// answered, over the measured period (http: wall_ms is that period, the CPU counters cover it). A folder with
// requests_served has the server's own count over that window; an older one only the loader's rate, taken over
// the server's window as an estimate.
const DERIVED_METRICS = {
  // The CPU-s a second the server's cgroup got over the measured period: what the host let it have.
  cpu_per_sec: (columns) =>
    columns.includes('cpu_total_ms') && columns.includes('wall_ms')
      ? { columns: ['cpu_total_ms', 'wall_ms'], of: (run) => run.cpu_total_ms / run.wall_ms }
      : { columns: ['cpu_total_ms', 'wall_ms'] },
  cpu_ms_per_response: (columns) =>
    columns.includes('requests_served')
      ? { columns: ['cpu_total_ms', 'requests_served'], of: (run) => run.cpu_total_ms / run.requests_served }
      : {
          columns: ['cpu_total_ms', 'requests_per_sec', 'wall_ms'],
          of: (run) => run.cpu_total_ms / ((run.requests_per_sec * run.wall_ms) / 1000),
        },
};

function renderTable({ name, metric, rows: rowAxis, columns: columnAxis, where }, context) {
  const folder = folderOf(context, name);
  if (!folder) return ['(not run yet)'];
  const derived = DERIVED_METRICS[metric]?.(folder.columns);
  const missing = (derived?.columns ?? [metric]).find((column) => !folder.columns.includes(column));
  if (missing) return [`(\`${missing}\` was not measured in this folder)`];
  const valueOf = derived ? derived.of : (run) => run[metric];
  const runs = selectRuns(folder, where);
  const valuesOf = (axis) => (axis ? orderValues(runs.map((run) => run[axis])) : [undefined]);
  const rowValues = valuesOf(rowAxis);
  const columnValues = valuesOf(columnAxis);
  const head = `| ${rowAxis} | ${columnValues.map((value) => (columnAxis ? `${columnAxis} ${formatValue(value)}` : metric)).join(' | ')} |`;
  const lines = [head, `| --- | ${columnValues.map(() => '---').join(' | ')} |`];
  for (const rowValue of rowValues) {
    const cells = columnValues.map((columnValue) =>
      formatCell(
        runs
          .filter((run) => run[rowAxis] === rowValue && (!columnAxis || run[columnAxis] === columnValue))
          .map(valueOf),
      ),
    );
    lines.push(`| ${formatValue(rowValue)} | ${cells.join(' | ')} |`);
  }
  return [
    ...lines,
    '',
    `${metric}: median [interval of the median] (n); the interval covers the true median with the probability shown where it is below 95% (order statistics, docs/report.md).`,
  ];
}

function formatValue(value) {
  return value === '' || value === undefined || value === null ? '—' : String(value);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) runCommand(main);
