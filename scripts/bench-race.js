#!/usr/bin/env node
// Benchmark: runs (and minutes) to a settled recommendation, grid against race, on this engine, in one invocation.
//   The same pbkdf2 matrix — pool 1, 2, 4, 8 at 2 CPUs, `recommend:` within 5% — run through the real CLI as
//   `search: grid` (every cell its `--grid-runs` runs) and as `search: race` (the rule's start rounds, then each
//   round only the settings that can still change the answer, capped at the grid's runs). Printed side by side: runs
//   used, matrix wall time, each side's answer with its bound ("at most U% slower than the best tried"), whether
//   each is settled, and whether both recommend the same setting per budget.
// The modes alternate (grid, race, race, grid, … for --pairs) so a shared machine's drift hits both alike.
// Usage: npm run bench:race [-- --pairs 3 --grid-runs 10 --iterations 600000] [-- --docs] [-- --from DIR]
// (--docs also writes docs/bench-race.md from this invocation's figures; --from DIR reads the folders an earlier
// invocation left in DIR, /tmp/bench-race-*, instead of running them again.)
// Beside the runs: how much a run's CPU time spread within a cell. Where it spreads by more than the 5% margin,
// no number of runs this cap allows brings a bound under 5%, for the grid or the race: that is the host's noise, not
// the search's, and the figure says so.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { estimateRobustSd } from '../runner/stats/log-samples.js';
import { DEFAULT_BOUND_RULE } from '../runner/verdicts/choose-setting.js';
import { median } from '../runner/stats/statistics.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse/sync';
import { execa } from 'execa';

const CLI = fileURLToPath(new URL('../runner/cli.js', import.meta.url));
const DOCS_FILE = fileURLToPath(new URL('../docs/bench-race.md', import.meta.url));
const { values } = parseArgs({
  options: {
    pairs: { type: 'string', default: '3' },
    'grid-runs': { type: 'string', default: '10' },
    iterations: { type: 'string', default: '600000' },
    docs: { type: 'boolean', default: false },
    from: { type: 'string' },
  },
});
const pairs = Number(values.pairs);
const gridRuns = Number(values['grid-runs']);

const dir = values.from ?? mkdtempSync(join(tmpdir(), 'bench-race-'));
const configOf = (search) => `experiments:
  bench-race:
    timeout: 120
    memory: 512m
    matrix:
      workload: [pbkdf2]
      cpus: [2]
      uv_threadpool_size: [1, 2, 4, 8]
    params:
      pbkdf2: {tasks: 8, iterations: ${Number(values.iterations)}, keylen: 64, digest: sha512}
    recommend: {within: 5%}
${search === 'grid' ? `    repetitions: ${gridRuns}\n` : `    repetitions: ${DEFAULT_BOUND_RULE.n0}\n    search: race\n    adaptive: {max_repetitions: ${gridRuns}}\n`}`;
const files = Object.fromEntries(
  ['grid', 'race'].map((search) => {
    const file = join(dir, `${search}.yml`);
    if (!values.from) writeFileSync(file, configOf(search));
    return [search, file];
  }),
);

// The spread of CPU time per run within a cell (the robust standard deviation of its logs, about the relative
// spread), the median over the cells: the same work, so what it spreads by is the host's doing.
function spreadOfCpuTime(rows) {
  const byCell = new Map();
  for (const row of rows) byCell.set(row.cell, [...(byCell.get(row.cell) ?? []), Math.log(Number(row.cpu_total_ms))]);
  return median([...byCell.values()].filter((logs) => logs.length >= 3).map(estimateRobustSd));
}

const results = { grid: [], race: [] };
const order = Array.from({ length: pairs }, (_, pair) => (pair % 2 === 0 ? ['grid', 'race'] : ['race', 'grid'])).flat();
for (const [index, mode] of order.entries()) {
  const outDir = join(dir, `${index}-${mode}`);
  if (!values.from) {
    const run = await execa(
      'node',
      [CLI, 'run', '--config', files[mode], '--out', outDir, '--seed', String(index + 1)],
      {
        reject: false,
        all: true,
      },
    );
    if (run.exitCode !== 0) throw new Error(`${mode} matrix failed (exit ${run.exitCode}):\n${run.all}`);
  }
  const rows = parse(readFileSync(join(outDir, 'runs.csv'), 'utf8'), { columns: true });
  const advice = parse(readFileSync(join(outDir, 'advice.csv'), 'utf8'), { columns: true });
  const spanMs =
    Math.max(...rows.map((row) => Date.parse(row.finished_at))) -
    Math.min(...rows.map((row) => Date.parse(row.started_at)));
  results[mode].push({
    runs: rows.length,
    spanMs,
    spread: spreadOfCpuTime(rows),
    advice: advice.map(({ budget, recommended, status, bound_pct: bound }) => ({ budget, recommended, status, bound })),
  });
  console.error(
    `${mode}: ${rows.length} runs in ${(spanMs / 60000).toFixed(1)} min → ${advice.map(formatAnswer).join('; ')}`,
  );
}

const mean = (xs) => xs.reduce((total, x) => total + x, 0) / xs.length;
// "cpus=2: uv_threadpool_size=2, at most 3.1% slower (settled)": an answer with its bound.
function formatAnswer({ budget, recommended, status, bound_pct: read, bound = read }) {
  const at =
    bound === null || bound === undefined || bound === '' ? 'no bound' : `at most ${Number(bound).toFixed(1)}% slower`;
  return `${budget}: ${recommended || '—'}, ${at} (${status})`;
}
const formatPct = (fraction) => `${(100 * fraction).toFixed(1)}%`;
// Two answers agree on a recommendation only when both are settled; open ones agree at most on who leads so far.
const settledBoth = (...results) =>
  results.every((result) => result.advice.every((answer) => answer.status === 'settled'));
const lines = [];
for (let pair = 0; pair < pairs; pair++) {
  const [grid, race] = [results.grid[pair], results.race[pair]];
  const same = grid.advice.every((answer) =>
    race.advice.some((other) => other.budget === answer.budget && other.recommended === answer.recommended),
  );
  lines.push(
    `pair ${pair + 1}: grid ${grid.runs} runs, ${(grid.spanMs / 60000).toFixed(1)} min; race ${race.runs} runs, ${(race.spanMs / 60000).toFixed(1)} min; race / grid: ${(race.runs / grid.runs).toFixed(2)} of the runs, ${(race.spanMs / grid.spanMs).toFixed(2)} of the time; ${settledBoth(grid, race) ? 'same recommendation' : 'same leader, not a settled recommendation'}: ${same ? 'yes' : 'no'} (grid: ${grid.advice.map(formatAnswer).join(', ')}; race: ${race.advice.map(formatAnswer).join(', ')}); CPU time of a run spread by ±${formatPct(grid.spread)} (grid) and ±${formatPct(race.spread)} (race) within a cell`,
  );
}
const ratio = mean(results.race.map((r) => r.runs)) / mean(results.grid.map((r) => r.runs));
const agree = results.race.filter((race, pair) =>
  race.advice.every(
    (answer) =>
      answer.status === 'settled' &&
      results.grid[pair].advice.some(
        (other) => other.budget === answer.budget && other.recommended === answer.recommended,
      ),
  ),
).length;
lines.push(
  `mean: race uses ${ratio.toFixed(2)} of the grid's runs (goal ≤ 0.50); the race settled ${results.race.filter((r) => r.advice.every((a) => a.status === 'settled')).length} of ${pairs} (goal ≥ 2 of 3), with the grid's recommendation in ${agree} of ${pairs}`,
);
const settled = [...results.grid, ...results.race].filter((result) =>
  result.advice.every((answer) => answer.status === 'settled'),
).length;
const spread = median([...results.grid, ...results.race].map((result) => result.spread));
if (settled < 2 * pairs)
  lines.push(
    `settled: ${settled} of ${2 * pairs} matrices; the CPU time of one run spread by ±${formatPct(spread)} within a cell (median), against a margin of 5%: where that spread is near or above the margin, ${gridRuns} runs a cell bring a bound under 5% only by luck, grid or race`,
  );
console.log(lines.join('\n'));

if (values.docs) {
  const stamp = new Date().toISOString().slice(0, 10);
  writeFileSync(
    DOCS_FILE,
    [
      '# Racing against the grid',
      '',
      `Generated by \`npm run bench:race -- --docs\` (${stamp}; ${pairs} pair(s), grid ${gridRuns} runs a cell, pbkdf2 ${Number(values.iterations)} iterations); do not edit by hand.`,
      'The same matrix, pbkdf2 with pool 1, 2, 4 and 8 at 2 CPUs and `recommend: {within: 5%}`, run through the CLI as',
      `\`search: grid\` and as \`search: race\` (${DEFAULT_BOUND_RULE.n0} start rounds, then only the settings that can still change the answer, capped at the grid's runs), alternating.`,
      '',
      '```yaml',
      configOf('race').trimEnd(),
      '```',
      '',
      ...lines.map((line) => `- ${line}`),
      '',
    ].join('\n'),
  );
  console.log(`wrote ${DOCS_FILE}`);
}
