#!/usr/bin/env node
// Runs (and minutes) to a settled answer: per results folder, how many runs it took against the most its plan
// allowed, from the first start to the last end, how busy the host was, and how many of its claims and budgets were
// decided, with the widest bound of the advice — the figure that matters most to a person waiting for an answer.
// Usage: node scripts/settling.js [DIR ...] [--docs]; without DIR the folders of docs/settling/. --docs writes
// docs/settling.md from them, the README's example answer from the first `race-*` folder, and docs/http.md's block of
// the login service's answers from the `http-login-*` folders (generated, never typed).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { advise, judge } from '../runner/index.js';
import { readResults } from '../runner/results/read-results.js';
import { formatAdviceText } from '../runner/report/advice.js';
import { planExperiments } from '../runner/plan/plan-runs.js';
import { countMostExtraRuns } from '../runner/plan/most-runs.js';
import { countMostReruns } from '../runner/rounds/reruns.js';
import { fitRoundNoise, readReferenceTruths } from './lib/bound-noise.js';
import { writeDocBlock } from './lib/doc-block.js';
import { oracleRuns } from './lib/bound-limit.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DOCS_FILE = join(ROOT, 'docs/settling.md');
const README = join(ROOT, 'README.md');
const HTTP_DOC = join(ROOT, 'docs/http.md');
const EXAMPLE = { start: '<!-- settling:example:start -->', end: '<!-- settling:example:end -->' };

/** One folder's figures: runs and their bound, minutes, the host, claims and budgets decided, the widest bound. */
export async function measureFolder(dir) {
  const { runs, info } = readResults(dir, { keepDisturbed: true });
  const spanMs =
    Math.max(...runs.map((run) => Date.parse(run.finished_at))) -
    Math.min(...runs.map((run) => Date.parse(run.started_at)));
  const overall = (await judge(dir)).claims.filter((row) => row.kind === 'claim-overall');
  const advice = await advise(dir);
  const config = info?.config ?? {};
  const cells = info?.cells?.length ?? new Set(runs.map((run) => run.cell)).size;
  const bound = countPlanBound(config, info) ?? cells * (config.repetitions + (config.max_reruns ?? 0));
  const bounds = advice.answers.map((row) => row.bound_pct).filter((value) => value !== null);
  return {
    folder: relative(ROOT, dir),
    search: config.search ?? 'grid',
    // A revision with changes not committed yet is marked: the code that ran is that revision and more.
    revision: `${info?.project?.git_revision?.slice(0, 7) ?? '?'}${info?.project?.git_dirty ? ' (uncommitted changes)' : ''}`,
    runs: runs.length,
    bound,
    disturbed: runs.filter((run) => run.disturbed === true).length,
    waited_s: Math.round((info?.summary?.busy_wait_ms ?? 0) / 1000),
    minutes: spanMs / 60000,
    claims: `${overall.filter((row) => row.verdict !== 'inconclusive').length} of ${overall.length} decided (${overall.map((row) => row.verdict).join(', ') || 'none'})`,
    settled: advice.answers.filter((row) => row.status === 'settled').length,
    // Budgets whose runs the host did not give their CPUs (domain/delivery.js): said, never answered.
    unmeasured: advice.answers.filter((row) => row.status === 'not measured').length,
    budgets: advice.answers.length,
    widest: bounds.length ? Math.max(...bounds) : null,
    // How noisy the host was while it ran: a run's own spread once its cell's level and its round's shift are taken
    // out (the bound study's fit, runs the disturbed-run rule left out excluded): what a bound must see through.
    spread: 100 * fitRoundNoise(dir, [readResults(dir)]).sd,
    advice,
  };
}

/** The "up to" the plan printed for this folder's experiment: planned runs, the most rounds may add, the re-runs. */
function countPlanBound(config, info) {
  try {
    const [plan] = planExperiments(
      { file: 'run.json', experiments: [config] },
      { defaultNodeMajor: info?.cells?.[0]?.node_major ?? 24 },
    );
    return plan.runs.length + countMostExtraRuns(plan).total + countMostReruns(plan);
  } catch {
    return null;
  }
}

/**
 * The fewest runs any sequential test could have settled a race folder's budgets in, as often as it did, at its own
 * noise: Wald's bound (scripts/lib/bound-limit.js oracleRuns, σ and the gaps known) summed over its budgets, the gaps
 * from the race folders pooled (every invocation's rounds as blocks of their own), σ the folder's own spread of a run.
 * Null for a folder that is not a race of the default file's work (wall_ms budgets of the pooled folders).
 */
export function measureOracle(row, truths) {
  if (row.search !== 'race' || !/\/race-\d+$/.test(row.folder) || row.budgets === 0) return null;
  const power = Math.min(0.99, Math.max(0.05, row.settled / row.budgets));
  const sd = row.spread / 100;
  const limits = truths.map((budget) => oracleRuns(budget.settings, { sd, within: 0.05, alpha: 0.05, power }));
  return limits.length && limits.every(Number.isFinite) ? limits.reduce((sum, runs) => sum + runs, 0) : null;
}

export function formatTable(rows) {
  return [
    "| folder | search | revision | runs (plan: up to) | disturbed | waited for a quiet host | spread of a run | minutes | claims | budgets settled | widest bound | the oracle's limit (runs ÷ it) |",
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (row) =>
        `| ${row.folder} | ${row.search} | ${row.revision} | ${row.runs} (${row.bound}) | ${row.disturbed} | ${row.waited_s} s | ${row.spread.toFixed(1)}% | ${row.minutes.toFixed(1)} | ${row.claims} | ${row.settled} of ${row.budgets}${row.unmeasured ? ` (${row.unmeasured} not measured here)` : ''} | ${row.widest === null ? '—' : `${row.widest.toFixed(1)}%`} | ${row.oracle == null ? '—' : `${row.oracle.toFixed(1)} (${(row.runs / row.oracle).toFixed(2)}×)`} |`,
    ),
  ];
}

/** The README's example: the first settled budget of the first race folder that names a cheaper setting out. */
export function pickExample(rows) {
  const race = rows.find((row) => /\/race-\d+$/.test(row.folder)) ?? rows[0];
  if (!race) return null;
  const tables = race.advice.tables ?? [];
  const settled = tables.filter((each) => each.status === 'settled');
  // The cheapest row not the one to use: a cheaper setting was ruled out, which shows more of the answer.
  const table = settled.find((each) => !/^(use|keep)/.test(each.rows[0]?.[4] ?? '')) ?? settled[0] ?? tables[0];
  return table ? { folder: race.folder, lines: formatAdviceText({ tables: [table] }).filter(Boolean) } : null;
}

/** docs/http.md's block: each invocation on the login service, its runs and minutes, and the answer it printed. */
export function formatLoginBlock(rows) {
  return [
    `Generated by \`node scripts/settling.js --docs\` from ${rows.map((row) => `\`${row.folder}\``).join(', ')}.`,
    '',
    '| folder | revision | runs (plan: up to) | disturbed | minutes | budgets settled | the answer |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map((row) =>
      [
        row.folder,
        row.revision,
        `${row.runs} (${row.bound})`,
        row.disturbed,
        row.minutes.toFixed(1),
        `${row.settled} of ${row.budgets}`,
        row.advice.answers.map((answer) => answer.words).join(' '),
      ]
        .map((cell) => String(cell).replaceAll('|', '\\|'))
        .join(' | ')
        .replace(/^/, '| ')
        .replace(/$/, ' |'),
    ),
  ];
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { docs: { type: 'boolean', default: false } },
  });
  const base = join(ROOT, 'docs/settling');
  const dirs = positionals.length
    ? positionals
    : readdirSync(base)
        .map((name) => join(base, name))
        .filter((dir) => existsSync(join(dir, 'runs.csv')))
        .sort();
  const rows = [];
  for (const dir of dirs) rows.push(await measureFolder(dir));
  const races = dirs.filter((dir) => /\/race-\d+$/.test(dir));
  const truths = readReferenceTruths(races.map((dir) => ({ dir, runs: readResults(dir).runs })));
  for (const row of rows) row.oracle = measureOracle(row, truths);
  const lines = formatTable(rows);
  console.log(lines.join('\n'));
  if (!values.docs) return;
  writeFileSync(
    DOCS_FILE,
    [
      '# Runs to a settled answer',
      '',
      'Generated by `node scripts/settling.js --docs` from the results folders of [docs/settling/](settling/); do not edit by hand.',
      'Each is one run of an experiments file on this 2-CPU host: how many runs it took (disturbed runs and',
      'their re-runs included) against the most its plan allowed, how many of them the rest of the host disturbed and how',
      'long the runner waited for a quiet host, how much a run spread by itself (its own noise once its cell and its round',
      'are taken out: what the bounds must see through), minutes from the first start to the last end, how many claims',
      'and budgets the runs decided, the widest bound of its advice ("at most U% slower than the best tried", 95%), and',
      "for a race of the default file the oracle's limit: the fewest runs any sequential test could settle its budgets in",
      'as often as it did, at its own spread, knowing σ and the true gaps (Wald; the gaps from the race folders pooled;',
      '[statistics.md](statistics.md#is-13-the-oracle-reachable) says why a valid race cannot come near it, and what it',
      'is held to instead). `default-experiments` is the file as it was before racing (a grid of 4 runs a cell), judged',
      "by today's rules; `race-*` are three invocations of today's default `experiments.yml` with no other program busy;",
      '`busy-*` ran it beside a program that kept one CPU busy throughout; `http-login-*` are the login service of',
      '[examples/](../examples/) (`login-service-fastify` three times, `-express` and `-start` once), each with the file',
      '`init` wrote for it with no flag but the app or `--start` ([http.md](http.md)). The bound study',
      '(docs/statistics.md) fits its race profile to `race-*`: a folder whose runs spread more ran in a noisier period of',
      'the host, where the study expects fewer budgets settled.',
      '',
      ...lines,
      '',
    ].join('\n'),
  );
  console.log(`wrote ${DOCS_FILE}`);
  const login = rows.filter((row) => /\/http-login-[^/]+$/.test(row.folder));
  if (login.length) {
    writeDocBlock(HTTP_DOC, 'http:login', formatLoginBlock(login));
    console.log(`wrote the login service's answers into ${HTTP_DOC}`);
  }
  const example = pickExample(rows);
  const readme = readFileSync(README, 'utf8');
  const start = readme.indexOf(EXAMPLE.start);
  const end = readme.indexOf(EXAMPLE.end);
  if (example && start >= 0 && end > start) {
    const block = ['```text', ...example.lines, '```'].join('\n');
    writeFileSync(README, `${readme.slice(0, start + EXAMPLE.start.length)}\n${block}\n${readme.slice(end)}`);
    console.log(`wrote the example answer of ${example.folder} into ${README}`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
