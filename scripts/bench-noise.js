#!/usr/bin/env node
// Benchmark: less noise at the source, measured. The default experiment's budgets (pbkdf2 at 1 and 2 CPUs, pools 1, 2,
// 4 and 8; argon2 too with --workloads pbkdf2,argon2) run through the real CLI in three ways, interleaved in time so
// that they share the host's noise: `shuffled` (today's order, one pass of the tasks per container), `abba` (a budget's
// cells back to back, mirrored every other round) and `batches` (abba, and the tasks run --batches times per container
// after a warm-up pass). Every run also records the speed probe (`speed_probe: true`), so each way is judged with and
// without the probe as a covariate. Printed side by side per way: the residual SD of log wall time once cell and round
// are known, the SD of the paired differences between settings of a budget (what a bound "at most 5% slower than the
// best" is made of), how much of it the probe explains, and the rounds and minutes that would bring that bound under
// 5% (scripts/lib/noise-figures.js), beside the host's load while it ran.
// Usage: npm run bench:noise [-- --blocks 5 --iterations 25000 --batches 3 --workloads pbkdf2] [-- --docs]
//   [-- --dir DIR] [-- --from DIR]
// A block is one invocation of the CLI per way, 2 rounds each (one mirrored pair), the ways in alternating order.
// --dir DIR runs into DIR and, when DIR holds an earlier invocation's folders, only what they lack (an interrupted
// benchmark resumes: a folder left half done is finished with `run --resume`; with --blocks N, more blocks are added
// to it); --from DIR only reads DIR's folders. About 2.5 minutes a block on a quiet 2-vCPU host at the defaults.
// --docs also writes docs/bench-noise.md from this invocation's figures.
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { EXPERIMENT_DEFAULTS } from '../runner/config/defaults.js';
import { DEFAULT_BOUND_RULE } from '../runner/verdicts/choose-setting.js';
import { readResults } from '../runner/results/read-results.js';
import { median } from '../runner/stats/statistics.js';
import { createRandom } from '../runner/stats/random.js';
import {
  bootstrapRounds,
  countRoundsToBound,
  findPercentileInterval,
  fitCellCovariate,
  measurePairedSdOf,
  measureBlockedResidualSd,
  measureBounds,
  measurePairedSd,
  pairSettings,
} from './lib/noise-figures.js';

// Why the defaults are as they are, in words that hold whatever one invocation measures; the figures are below them.
const KEPT_WHY = [
  'The rule: a key becomes a default only when the interval of its cost ratio lies wholly below 1 in a measurement like',
  "this one; until then it stays as it was (today's shuffled order, no probe, no batches), and the key is there for a",
  'person who wants it and for the next measurement. What each can buy, as reasons rather than figures:',
  '',
  "- `abba` helps only where the host's speed drifts over tens of seconds, so that runs made back to back share more of",
  '  it than runs made a round apart; where it changes within a run (time sharing inside a busy guest), no order helps.',
  "- Batches average passes inside one container; the passes share the container's slow drift, so they cut only the",
  '  fast part of the noise, and a round costs (warm-up + count) passes instead of one.',
  "- The probe explains a run only as far as the CPU's speed at the probe lasts into the run, and it pays only in an",
  "  analysis that takes it out of the comparison (`runner/stats/covariate.js`; advice's bounds do not use it yet).",
];

const CLI = fileURLToPath(new URL('../runner/cli.js', import.meta.url));
const DOCS_FILE = fileURLToPath(new URL('../docs/bench-noise.md', import.meta.url));
const { values } = parseArgs({
  options: {
    blocks: { type: 'string', default: '5' },
    iterations: { type: 'string', default: '25000' },
    batches: { type: 'string', default: '3' },
    workloads: { type: 'string', default: 'pbkdf2' },
    'argon2-tasks': { type: 'string', default: '4' },
    docs: { type: 'boolean', default: false },
    dir: { type: 'string' },
    from: { type: 'string' },
  },
});

const dir = values.from ?? values.dir ?? mkdtempSync(join(tmpdir(), 'bench-noise-'));
mkdirSync(dir, { recursive: true });
// An earlier invocation's settings win: a resumed or re-read benchmark must measure what it measured.
const settingsFile = join(dir, 'settings.json');
const settings = existsSync(settingsFile)
  ? JSON.parse(readFileSync(settingsFile, 'utf8'))
  : {
      blocks: Number(values.blocks),
      iterations: Number(values.iterations),
      batches: Number(values.batches),
      workloads: values.workloads.split(','),
      argon2Tasks: Number(values['argon2-tasks']),
    };
// More blocks may be asked of an earlier invocation (--dir DIR --blocks N): the blocks it has stay, the rest are added.
if (!values.from && process.argv.includes('--blocks')) settings.blocks = Number(values.blocks);
if (!values.from) writeFileSync(settingsFile, `${JSON.stringify(settings, null, 2)}\n`);

const WAYS = [
  { name: 'shuffled', words: "today's order: every round shuffled, one pass of the tasks a container", keys: {} },
  { name: 'abba', words: "a budget's cells back to back, every other round mirrored", keys: { round_order: 'abba' } },
  {
    name: 'batches',
    words: `abba, and the tasks ${settings.batches} times a container after a warm-up pass (the run's value: their median)`,
    keys: { round_order: 'abba', batches: `{count: ${settings.batches}, warmup: 1}` },
  },
];

const configOf = (way) => `experiments:
  bench-noise:
    repetitions: 2
    max_reruns: 0
    timeout: 300
    memory: 1g
    speed_probe: true
${Object.entries(way.keys)
  .map(([key, value]) => `    ${key}: ${value}\n`)
  .join('')}    matrix:
      workload: [${settings.workloads.join(', ')}]
      cpus: [1, 2]
      uv_threadpool_size: [1, 2, 4, 8]
    params:
      pbkdf2: {tasks: 16, iterations: ${settings.iterations}, keylen: 512, digest: sha512}
${settings.workloads.includes('argon2') ? `      argon2: {tasks: ${settings.argon2Tasks}}\n` : ''}`;
for (const way of WAYS) {
  way.file = join(dir, `${way.name}.yml`);
  if (!values.from) writeFileSync(way.file, configOf(way));
}

const folderOf = (block, way) => join(dir, `b${block}-${way.name}`);
const isComplete = (folder) => {
  if (!existsSync(join(folder, 'run.json'))) return false;
  const { summary } = JSON.parse(readFileSync(join(folder, 'run.json'), 'utf8'));
  return summary !== undefined && summary.done >= summary.total;
};
const readLoad = () => loadavg().map((value) => Math.round(value * 100) / 100);

if (!values.from) {
  for (let block = 1; block <= settings.blocks; block++) {
    // Alternating order, so a drift over the block falls on the ways alike.
    for (const way of block % 2 === 1 ? WAYS : [...WAYS].reverse()) {
      const folder = folderOf(block, way);
      if (isComplete(folder)) continue;
      const args = existsSync(join(folder, 'run.json'))
        ? ['--resume', folder]
        : ['--config', way.file, '--out', folder, '--seed', String(1000 + block)];
      const before = readLoad();
      const started = Date.now();
      const run = await execa('node', [CLI, 'run', ...args], { reject: false, all: true });
      // 1: some runs not ok, their rows kept (counted below); anything else stops the benchmark, resumable with --dir.
      if (run.exitCode !== 0 && run.exitCode !== 1)
        throw new Error(
          `${way.name} block ${block} failed (exit ${run.exitCode}); resume with --dir ${dir}:\n${run.all}`,
        );
      appendFileSync(
        join(dir, 'load.jsonl'),
        `${JSON.stringify({ folder: `b${block}-${way.name}`, before, after: readLoad() })}\n`,
      );
      console.error(
        `block ${block}/${settings.blocks} ${way.name}: ${((Date.now() - started) / 60000).toFixed(1)} min, load ${before[0]} → ${readLoad()[0]}`,
      );
    }
  }
}

// ---- reading the folders back ----
const loads = existsSync(join(dir, 'load.jsonl'))
  ? readFileSync(join(dir, 'load.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
  : [];

/** Per run of a way: its observation and, for batches, each batch's wall and what the run cost. */
function readWay(way) {
  const runs = [];
  const spans = [];
  for (let block = 1; block <= settings.blocks; block++) {
    const folder = folderOf(block, way);
    if (!existsSync(join(folder, 'runs.csv'))) continue;
    const results = readResults(folder, { keepDisturbed: true });
    const started = Math.min(...results.runs.map((row) => Date.parse(row.started_at)));
    const finished = Math.max(...results.runs.map((row) => Date.parse(row.finished_at)));
    spans.push({ ms: finished - started, rounds: new Set(results.runs.map((row) => row.repetition)).size });
    const walls = batchWalls(results.tasks);
    for (const row of results.runs) {
      if (row.warmup === true) continue;
      runs.push({ row, block, walls: walls.get(`${row.cell}.${row.repetition}`) ?? new Map() });
    }
  }
  return { runs, spans };
}

function batchWalls(tasks) {
  const walls = new Map();
  for (const task of tasks) {
    if (task.batch === undefined) continue;
    const key = `${task.cell}.${task.repetition}`;
    if (!walls.has(key)) walls.set(key, new Map());
    const batch = walls.get(key).get(task.batch) ?? { start: Infinity, end: -Infinity };
    walls.get(key).set(task.batch, {
      start: Math.min(batch.start, task.start_ms),
      end: Math.max(batch.end, task.end_ms),
    });
  }
  return new Map(
    [...walls].map(([key, batches]) => [
      key,
      new Map([...batches].map(([batch, { start, end }]) => [batch, end - start])),
    ]),
  );
}

const budgetOf = (row) => `${row.workload} cpus=${row.cpus}`;
const toObservation = (run, value) => ({
  budget: budgetOf(run.row),
  cell: run.row.cell,
  round: `${run.block}.${run.row.repetition}`,
  y: Math.log(value),
  probe: Math.log(run.row.speed_probe_ms),
  probeCpu: Math.log(run.row.speed_probe_cpu_ms),
});
const mean = (xs) => xs.reduce((total, x) => total + x, 0) / xs.length;
const sumWalls = (walls, keep) =>
  [...walls].filter(([batch]) => keep(batch)).reduce((total, [, wall]) => total + wall, 0);

// A way's value of a run, and what that value cost: the batches way is also read as if it had stopped sooner
// (its first measured batch alone, or only its warm-up pass: one cold pass, as a run without batches), each charged
// the container's time less the batches it would not have run.
const READINGS = [
  { way: 'shuffled', name: 'shuffled', value: (run) => run.row.wall_ms, cost: (run) => run.row.container_ms },
  { way: 'abba', name: 'abba', value: (run) => run.row.wall_ms, cost: (run) => run.row.container_ms },
  {
    way: 'batches',
    name: `batches: median of ${settings.batches}`,
    value: (run) => run.row.wall_ms,
    cost: (run) => run.row.container_ms,
  },
  {
    way: 'batches',
    name: `batches: mean of ${settings.batches}`,
    value: (run) => mean([...run.walls].filter(([batch]) => batch > 0).map(([, wall]) => wall)),
    cost: (run) => run.row.container_ms,
  },
  {
    way: 'batches',
    name: 'batches: the first after the warm-up',
    value: (run) => run.walls.get(1),
    cost: (run) => run.row.container_ms - sumWalls(run.walls, (batch) => batch > 1),
  },
  {
    way: 'batches',
    name: 'batches: the warm-up pass alone',
    value: (run) => run.walls.get(0),
    cost: (run) => run.row.container_ms - sumWalls(run.walls, (batch) => batch > 0),
  },
];

const read = Object.fromEntries(WAYS.map((way) => [way.name, readWay(way)]));
const formatPct = (fraction, digits = 1) => (Number.isFinite(fraction) ? `${(100 * fraction).toFixed(digits)}%` : '—');
const formatNumber = (value, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : '—');

const figures = READINGS.map((reading) => {
  const { runs, spans } = read[reading.way];
  const ok = runs.filter(
    (run) => run.row.status === 'ok' && Number.isFinite(reading.value(run)) && reading.value(run) > 0,
  );
  const observations = ok.map((run) => toObservation(run, reading.value(run)));
  const pairs = pairSettings(observations);
  const paired = measurePairedSd(pairs);
  const pairedProbe = measurePairedSd(pairs, 'probe');
  const pairedProbeCpu = measurePairedSd(pairs, 'probeCpu');
  // Seconds a round of every cell takes: the folders' spans (runner and container start-up included), scaled to what
  // this reading's runs cost against what the way's runs did.
  const costShare = mean(ok.map(reading.cost)) / mean(ok.map((run) => run.row.container_ms));
  const roundSeconds = (mean(spans.map((span) => span.ms / span.rounds)) / 1000) * costShare;
  const rounds = (sd, gap = 0) => countRoundsToBound(sd, { gap, k: 4 });
  // Without the probe a round would not pay for it: its share of the containers' time comes off.
  const probeShare = mean(ok.map((run) => run.row.speed_probe_ms / run.row.container_ms));
  const minutes = (sd, seconds) => (rounds(sd) === null ? null : (rounds(sd) * seconds) / 60);
  const folderLoads = loads.filter((entry) => entry.folder.endsWith(`-${reading.way}`));
  return {
    name: reading.name,
    way: reading.way,
    observations,
    runs: runs.length,
    ok: ok.length,
    rounds: new Set(observations.map((observation) => observation.round)).size,
    load: folderLoads.length ? mean(folderLoads.map((entry) => (entry.before[0] + entry.after[0]) / 2)) : null,
    disturbed: runs.filter((run) => run.row.disturbed === true).length / Math.max(1, runs.length),
    interference: median(runs.map((run) => run.row.interference_pct).filter(Number.isFinite)),
    residual: measureBlockedResidualSd(observations),
    cellProbe: fitCellCovariate(observations, 'probe'),
    paired,
    pairedProbe,
    pairedProbeCpu,
    byBudget: [...new Set(pairs.map((pair) => pair.budget))].map((budget) => ({
      budget,
      sd: measurePairedSd(pairs.filter((pair) => pair.budget === budget))?.sd,
      sdProbe: measurePairedSd(
        pairs.filter((pair) => pair.budget === budget),
        'probe',
      )?.sd,
    })),
    probeShare,
    bounds: measureBounds(observations),
    boundsProbe: measureBounds(observations, { covariate: 'probe' }),
    roundSeconds,
    roundsTied: rounds(paired?.sd),
    roundsGap: rounds(paired?.sd, 0.02),
    roundsTiedProbe: rounds(pairedProbe?.sd),
    minutes: minutes(paired?.sd, roundSeconds * (1 - probeShare)),
    minutesProbe: minutes(pairedProbe?.sd, roundSeconds),
  };
});

// ---- printing ----
const base = figures[0];
const lines = [];
const table = [
  '| way | runs (ok) | rounds | load (1 min) | disturbed | residual SD | round SD | paired SD | probe: r in cell / r paired | paired SD with probe | rounds to ≤ 5%: tied, +2% (with probe) | s a round | minutes to ≤ 5% (with probe) |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ...figures.map(
    (f) =>
      `| ${f.name} | ${f.runs} (${f.ok}) | ${f.rounds} | ${formatNumber(f.load, 1)} | ${formatPct(f.disturbed, 0)} | ${formatPct(f.residual?.sd)} | ${formatPct(f.residual?.roundSd)} | ${formatPct(f.paired?.sd)} | ${formatNumber(f.cellProbe?.correlation)} / ${formatNumber(f.pairedProbe?.correlation)} | ${formatPct(f.pairedProbe?.sd)} | ${f.roundsTied ?? '> 1000'}, ${f.roundsGap ?? '> 1000'} (${f.roundsTiedProbe ?? '> 1000'}) | ${formatNumber(f.roundSeconds, 0)} | ${formatNumber(f.minutes, 1)} (${formatNumber(f.minutesProbe, 1)}) |`,
  ),
];
lines.push(...table, '');
lines.push('Paired SD per budget (without / with the probe):', '');
lines.push(
  `| way | ${base.byBudget.map((b) => b.budget).join(' | ')} |`,
  `| --- | ${base.byBudget.map(() => '---').join(' | ')} |`,
  ...figures.map(
    (f) =>
      `| ${f.name} | ${base.byBudget
        .map((b) => f.byBudget.find((each) => each.budget === b.budget))
        .map((b) => `${formatPct(b?.sd)} / ${formatPct(b?.sdProbe)}`)
        .join(' | ')} |`,
  ),
  '',
);
lines.push(
  `The bound each budget reached with all of its rounds, as advice computes it (MCB, ${DEFAULT_BOUND_RULE.method}${DEFAULT_BOUND_RULE.winsorize ? ', winsorised' : ''}: the smallest "at most U% slower than the best" of its settings), without / with the probe:`,
  '',
  `| way | ${base.bounds.map((b) => b.budget).join(' | ')} |`,
  `| --- | ${base.bounds.map(() => '---').join(' | ')} |`,
  ...figures.map(
    (f) =>
      `| ${f.name} | ${base.bounds
        .map((b) => [f.bounds, f.boundsProbe].map((list) => list.find((each) => each.budget === b.budget)?.bound_pct))
        .map(([without, withProbe]) => `${formatNumber(without, 1)}% / ${formatNumber(withProbe, 1)}%`)
        .join(' | ')} |`,
  ),
  '',
);
{
  const both = figures.flatMap((f) =>
    f.bounds.map((b) => [b.bound_pct, f.boundsProbe.find((each) => each.budget === b.budget)?.bound_pct]),
  );
  const wider = both.filter(([without, withProbe]) => withProbe > without).length;
  lines.push(
    `With each run moved by the probe's within-cell slope before the bound, the bound was wider in ${wider} of ${both.length} (way, budget) cases${wider > both.length / 2 ? ": likely because the slope within a cell comes from the rounds' shared shift, which the blocked bound takes out anyway, the adjustment only adds the probes' own noise to each paired difference — an analysis that uses the probe beside rounds as blocks should fit its slope on the paired differences (measurePairedSd with a covariate), not within cells" : ''}.`,
    '',
  );
}
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `×${(a / b).toFixed(2)}` : '—');

// What a way costs to reach a given bound: its paired variance × the seconds of a round (the rounds a bound needs grow
// with the variance), against another way's, with a 95% interval from resampling each way's rounds (seeded). A way
// is shown to shorten the time to a settled answer only when the whole interval is below 1: the rule each key's default
// follows (the section "What is kept" of docs/bench-noise.md).
const RESAMPLES = 1000;
const random = createRandom(2026);
const replicatesOf = (f, covariate = null) =>
  bootstrapRounds(f.observations, (observations) => measurePairedSdOf(observations, covariate), {
    resamples: RESAMPLES,
    random,
  });
const secondsOf = (f, probe) => f.roundSeconds * (probe ? 1 : 1 - f.probeShare);
// Each comparison is drawn once, so a figure printed twice is the same figure.
const memo = new Map();
const once = (key, compute) => {
  if (!memo.has(key)) memo.set(key, compute());
  return memo.get(key);
};
const compareCost = (f, g) => once(`${f.name}\u0000${g.name}`, () => drawCostRatio(f, g));
const compareProbe = (f) => once(`${f.name}\u0000probe`, () => drawProbeRatio(f));
function drawCostRatio(f, g, { probeF = false, probeG = false } = {}) {
  const a = replicatesOf(f, probeF ? 'probe' : null);
  const b = replicatesOf(g, probeG ? 'probe' : null);
  const seconds = secondsOf(f, probeF) / secondsOf(g, probeG);
  const count = Math.min(a.length, b.length);
  const ratios = Array.from({ length: count }, (_, index) => (a[index] / b[index]) ** 2 * seconds);
  const sd = (h, probe) => (probe ? h.pairedProbe?.sd : h.paired?.sd);
  return { estimate: (sd(f, probeF) / sd(g, probeG)) ** 2 * seconds, interval: findPercentileInterval(ratios) };
}
/** The probe against none on the same runs: rounds resampled once for both, so the ratio is paired. */
function drawProbeRatio(f) {
  const ratios = bootstrapRounds(
    f.observations,
    (observations) => (measurePairedSdOf(observations, 'probe') / measurePairedSdOf(observations)) ** 2,
    { resamples: RESAMPLES, random },
  ).map((value) => value * (secondsOf(f, true) / secondsOf(f, false)));
  return {
    estimate: (f.pairedProbe?.sd / f.paired?.sd) ** 2 * (secondsOf(f, true) / secondsOf(f, false)),
    interval: findPercentileInterval(ratios),
  };
}
const formatCost = ({ estimate, interval }) =>
  `×${formatNumber(estimate)} [${formatNumber(interval?.[0])}, ${formatNumber(interval?.[1])}]`;
const shown = ({ interval }) => interval !== null && interval[1] < 1;

const reading = (name) => figures.find((f) => f.name === name);
const [shuffled, abba, batched] = ['shuffled', 'abba', `batches: median of ${settings.batches}`].map(reading);
const comparisons = {
  abba: compareCost(abba, shuffled),
  batches: compareCost(batched, abba),
  probe: compareProbe(reading(EXPERIMENT_DEFAULTS.round_order)),
};
lines.push(
  'Paired variance × seconds a round (the time a bound of a given width takes), 95% interval from resampling rounds:',
  '',
  `- abba against shuffled: ${formatCost(comparisons.abba)} (paired SD ${ratio(abba.paired?.sd, shuffled.paired?.sd)}, minutes to a 5% bound ${ratio(abba.minutes, shuffled.minutes)})`,
  ...figures
    .filter((f) => f.way === 'batches')
    .map(
      (f) =>
        `- ${f.name} against abba: ${formatCost(compareCost(f, abba))} (paired SD ${ratio(f.paired?.sd, abba.paired?.sd)}, a round ${ratio(f.roundSeconds, abba.roundSeconds)} as long, minutes to a 5% bound ${ratio(f.minutes, abba.minutes)})`,
    ),
  ...figures
    .slice(0, 3)
    .map(
      (f) =>
        `- the probe as a covariate, ${f.name}: ${formatCost(compareProbe(f))} (paired SD ${ratio(f.pairedProbe?.sd, f.paired?.sd)}; the probe's CPU time instead of its wall time: ${ratio(f.pairedProbeCpu?.sd, f.paired?.sd)}; the probe is ${formatPct(f.probeShare)} of a container's time); within a cell, across rounds (what a comparison of runs not made in the same rounds, e.g. of two folders, would gain): SD ×${formatNumber(Math.sqrt(1 - f.cellProbe?.varianceReduction))}`,
    ),
);
// Where the probe follows a run across rounds but not within one, what it sees is the round's shared shift, which
// pairing by round removes already.
const probeRounds = figures.slice(0, 3).filter((f) => f.cellProbe?.correlation - f.pairedProbe?.correlation > 0.2);
if (probeRounds.length > 0)
  lines.push(
    `- the probe follows the round, not the pair: r = ${probeRounds.map((f) => formatNumber(f.cellProbe.correlation)).join(', ')} with log wall within a cell against ${probeRounds.map((f) => formatNumber(f.pairedProbe.correlation)).join(', ')} with the paired differences (${probeRounds.map((f) => f.name).join(', ')}): most of what it explains is the shift a whole round shares, which comparing settings round by round takes out already`,
  );
console.log(lines.join('\n'));

// Each key's default, beside what this invocation shows.
const verdict = (comparison, words) =>
  shown(comparison)
    ? `these figures show ${words} shortening the time to a bound`
    : `these figures do not show ${words} shortening it (the interval reaches 1 or above)`;
const kept = [
  `- \`round_order: ${EXPERIMENT_DEFAULTS.round_order}\` — abba against shuffled ${formatCost(comparisons.abba)}: ${verdict(comparisons.abba, 'abba')}.`,
  `- \`speed_probe: ${EXPERIMENT_DEFAULTS.speed_probe}\` — the probe as a covariate (${EXPERIMENT_DEFAULTS.round_order} runs) ${formatCost(comparisons.probe)}: ${verdict(comparisons.probe, 'the probe')}; it pays only where the analysis takes it out of the comparison.`,
  `- \`batches: ${EXPERIMENT_DEFAULTS.batches === null ? 'none' : JSON.stringify(EXPERIMENT_DEFAULTS.batches)}\` — batches of ${settings.batches} against one pass a container ${formatCost(comparisons.batches)}: ${verdict(comparisons.batches, 'batches')}.`,
];
const agrees =
  shown(comparisons.abba) === (EXPERIMENT_DEFAULTS.round_order === 'abba') &&
  shown(comparisons.probe) === EXPERIMENT_DEFAULTS.speed_probe &&
  shown(comparisons.batches) === (EXPERIMENT_DEFAULTS.batches !== null);
kept.push(
  agrees
    ? '- The defaults follow these figures (a key becomes a default only when its whole interval lies below 1).'
    : '- **The defaults do not follow these figures** (a key becomes a default only when its whole interval lies below 1): they were chosen on another invocation; look again before keeping them.',
);
console.log(['', 'The defaults (runner/config/defaults.js), against these figures:', ...kept].join('\n'));

if (values.docs) {
  const allLoads = loads.flatMap((entry) => [entry.before[0], entry.after[0]]);
  const stamp = new Date().toISOString().slice(0, 10);
  writeFileSync(
    DOCS_FILE,
    [
      '# Less noise at the source: order, a speed probe, batches',
      '',
      `Generated by \`npm run bench:noise -- --docs\` (${stamp}; ${settings.blocks} blocks of 2 rounds a way; ${settings.workloads.join(' and ')}; pbkdf2 calls of ${settings.iterations} iterations, where the default file's have 100000${settings.workloads.includes('argon2') ? `; argon2 ${settings.argon2Tasks} tasks` : ''}; batches of ${settings.batches}); do not edit by hand.`,
      `The host's 1-minute load average while it ran: ${formatNumber(Math.min(...allLoads), 1)} to ${formatNumber(Math.max(...allLoads), 1)} on 2 vCPUs${Math.max(...allLoads) > 2.5 ? ' — **measured on a busy host** (other programs ran beside it): the figures say what these ways buy under that noise, not on a quiet host' : ''}.`,
      '',
      "The same matrix (the default experiment's budgets: 1 and 2 CPUs, pools 1, 2, 4 and 8, with shorter calls) run through the CLI",
      'in three ways, interleaved: each block runs each way once (2 rounds: one mirrored pair), the ways in alternating',
      "order, so that the host's drift falls on all three alike. Every run records the speed probe, so each way is read",
      'with and without it as a covariate. Ways:',
      '',
      ...WAYS.map((way) => `- \`${way.name}\`: ${way.words}`),
      '',
      'Columns: **residual SD** — of log wall time once the cell and the round (within the budget) are known; **round',
      'SD** — the shift a whole round of a budget shares, beyond the residuals; **paired SD** — of the difference of log',
      'wall time between two settings of a budget in the same round (pooled over every pair, each about its own mean):',
      'what the bound "at most 5% slower than the best" is made of; **probe r** — correlation of log wall with the log',
      "probe time within a cell, and of the paired difference with the probes' difference; **paired SD with probe** —",
      "after regressing the paired difference on the probes' difference (runner/stats/covariate.js); **rounds to ≤ 5%**",
      '— the fewest rounds n with t(1 − 0.05/3, n − 1) · SD / √n ≤ ln 1.05 (a setting tied with the best; +2%: one 2%',
      'slower), Bonferroni over 3 comparisons with the best; **s a round** — seconds one round of every cell took',
      '(container and runner included; for a reading of the batches way that stops sooner, charged its share);',
      '**minutes to ≤ 5%** — the two multiplied: the host time the matrix needs before a bound can reach 5% (without the',
      "probe, less the probe's own share of the time, which a run without it would not spend).",
      '',
      '```yaml',
      configOf(WAYS[2]).trimEnd(),
      '```',
      '',
      '## Figures',
      '',
      ...lines,
      '',
      '## What is kept',
      '',
      'The defaults of `runner/config/defaults.js`, each beside what these figures favour:',
      '',
      ...kept,
      '',
      ...KEPT_WHY,
      '',
    ].join('\n'),
  );
  console.log(`wrote ${DOCS_FILE}`);
}
