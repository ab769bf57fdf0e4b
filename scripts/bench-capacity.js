#!/usr/bin/env node
// Simulation (no timing: it needs no quiet host): does the capacity search's bracket hold the capacity, and how many
// runs does it take? Two parts, printed side by side:
//   1. the least favourable case of the repeated looks: a rate exactly at the SLO, run again and again up to the cap,
//      its spread pooled with `df` more degrees of freedom from other rates; how often one look or another shows it
//      within the SLO (a false "within"; each end of the bracket may spend α/2 = 2.5%), for several spending rules —
//      the one runner/verdicts/capacity.js uses (LOOK_POWER) among them;
//   2. whole searches (runner/verdicts/capacity.js as the rounds run it, `cells` settings searched side by side with
//      their spread pooled): the truth an M/D/1 queue's p99 (D = 5 ms, SLO 50 ms), each run's p99 off by lognormal
//      noise of σ (log scale); started at 0.3×, 1× and 3× the capacity. Printed: how often [low, high] holds the
//      capacity, how often `low` is above it (an unsafe "serves at most N"), how often it settles, the runs used.
// Usage: npm run bench:capacity [-- --searches 400 --cells 3 --cap 12 --resolution 0.2]
import { parseArgs } from 'node:util';
import jstatModule from 'jstat';
import { responseQuantile } from '../images/workload/lib/md1.js';
import { createRandom } from '../runner/stats/random.js';
import { CAPACITY_DEFAULTS, judgeCapacity, LOOK_POWER } from '../runner/verdicts/capacity.js';

const { jStat } = jstatModule;
const { values } = parseArgs({
  options: {
    searches: { type: 'string', default: '400' },
    looks: { type: 'string', default: '20000' },
    cells: { type: 'string', default: '3' },
    cap: { type: 'string', default: String(CAPACITY_DEFAULTS.cap) },
    resolution: { type: 'string', default: String(CAPACITY_DEFAULTS.resolution) },
  },
});
const ALPHA = CAPACITY_DEFAULTS.alpha;
const SERVICE_MS = 5;
const SLO_MS = 50;
const cap = Number(values.cap);
const resolution = Number(values.resolution);

const normal = (random) => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

const RULES = {
  'α/2 every look': () => ALPHA / 2,
  '(α/2)/(n+1)': (n) => ALPHA / 2 / (n + 1),
  [`(α/2)/(n(n+1))^${LOOK_POWER} (used)`]: (n) => ALPHA / 2 / (n * (n + 1)) ** LOOK_POWER,
  '(α/2)/(n(n+1))': (n) => ALPHA / 2 / (n * (n + 1)),
};

/** How often a rate exactly at the SLO is shown within it at some look up to `looks` runs. */
function simulateLooks(level, { maxRuns, otherDf, trials }) {
  let shown = 0;
  for (let trial = 0; trial < trials; trial++) {
    const random = createRandom(trial + 1);
    const others = Array.from({ length: otherDf + 1 }, () => normal(random));
    const otherMean = others.reduce((sum, y) => sum + y, 0) / others.length;
    const otherSquares = otherDf > 0 ? others.reduce((sum, y) => sum + (y - otherMean) ** 2, 0) : 0;
    const ys = [];
    for (let n = 1; n <= maxRuns; n++) {
      ys.push(normal(random));
      const mean = ys.reduce((sum, y) => sum + y, 0) / n;
      const df = n - 1 + otherDf;
      if (df < 1) continue;
      const sd = Math.sqrt((ys.reduce((sum, y) => sum + (y - mean) ** 2, 0) + otherSquares) / df);
      if (-mean / (sd / Math.sqrt(n)) > jStat.studentt.inv(1 - level(n), df)) {
        shown += 1;
        break;
      }
    }
  }
  return shown / trials;
}

// The searches ask for the same grid rates again and again: each rate's exact p99 is computed once.
const exactP99 = new Map();
function trueP99(rate) {
  if (!exactP99.has(rate)) {
    const queue = { rate: rate / 1000, serviceMs: SERVICE_MS };
    exactP99.set(rate, queue.rate * SERVICE_MS >= 0.999 ? 1e6 : responseQuantile(0.99, queue));
  }
  return exactP99.get(rate);
}

function findCapacity() {
  let low = 0;
  let high = 1000 / SERVICE_MS;
  for (let i = 0; i < 60; i++) {
    const middle = (low + high) / 2;
    if (trueP99(middle) <= SLO_MS) low = middle;
    else high = middle;
  }
  return low;
}

/** `cells` searches in lockstep, as one experiment's rounds run them; each judged with the others' spread pooled. */
function simulateSearch({ sigma, startRate, seed, cells }) {
  const random = createRandom(seed);
  const options = { sloMs: SLO_MS, startRate, resolution, cap };
  const runs = Array.from({ length: cells }, () => []);
  const next = Array.from({ length: cells }, () => startRate);
  for (;;) {
    for (let i = 0; i < cells; i++) {
      if (next[i] !== null)
        runs[i].push({ rate: next[i], p99: Math.exp(Math.log(trueP99(next[i])) + sigma * normal(random)) });
    }
    const judged = runs.map((own, i) =>
      judgeCapacity(
        own,
        options,
        runs.filter((_, j) => j !== i),
      ),
    );
    judged.forEach((judgement, i) => {
      next[i] = judgement.next;
    });
    if (next.every((rate) => rate === null)) return judged;
  }
}

const capacity = findCapacity();
const lines = [
  `1. A rate exactly at the SLO, looked at after each of its runs: how often it is ever shown within (goal ≤ ${(100 * ALPHA) / 2}%)`,
];
const trials = Number(values.looks);
for (const maxRuns of [8, 12, 16]) {
  for (const otherDf of [0, 4, 12]) {
    const figures = Object.entries(RULES).map(
      ([name, level]) => `${name}: ${(100 * simulateLooks(level, { maxRuns, otherDf, trials })).toFixed(2)}%`,
    );
    lines.push(`   up to ${maxRuns} runs, ${otherDf} more df pooled: ${figures.join('; ')}`);
  }
}
lines.push(
  '',
  `2. Whole searches: M/D/1 truth (D ${SERVICE_MS} ms, SLO p99 ≤ ${SLO_MS} ms: capacity ${capacity.toFixed(1)} req/s), ` +
    `${values.cells} settings side by side, cap ${cap} runs a setting, resolution ${100 * resolution}%, ${values.searches} searches each:`,
);
for (const sigma of [0.05, 0.1, 0.2]) {
  for (const start of [0.3, 1, 3]) {
    const results = [];
    for (let k = 0; k < Number(values.searches); k++) {
      const judged = simulateSearch({
        sigma,
        startRate: Math.round(start * capacity),
        seed: 1 + k,
        cells: Number(values.cells),
      });
      results.push(...judged);
    }
    const share = (test) => `${((100 * results.filter(test).length) / results.length).toFixed(1)}%`;
    const holds = (j) => (j.low === null || j.low <= capacity) && (j.high === null || j.high >= capacity);
    const meanRuns = results.reduce((sum, j) => sum + j.runs, 0) / results.length;
    lines.push(
      `   σ ${sigma}, start ${start}× the capacity: holds ${share(holds)}, low above the capacity ${share((j) => j.low !== null && j.low > capacity)}, ` +
        `settled ${share((j) => j.status === 'settled')}, ${meanRuns.toFixed(1)} runs a setting on average`,
    );
  }
}
console.log(lines.join('\n'));
