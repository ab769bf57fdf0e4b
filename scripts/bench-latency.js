#!/usr/bin/env node
// Benchmark: does the open loop measure latency right? A server of known service time — the http workload's `spin`
// route, one request at a time on one event loop at `cpus: 1` (the load generator on a CPU of its own) — is an M/D/1
// queue: Poisson arrivals, one server, a fixed service time D. Loaded open-loop at 50% and 80% of its capacity, its
// measured p50 and p99 are printed beside the queue's exact percentiles (images/workload/lib/md1.js, pinned against
// mpmath), each run with its own D: its CPU time per response (cpu_total_ms ÷ requests_served), which is node:http's
// own cost per request besides the spin. The goal (issue #38): within 15%.
//   1. a calibration run at 30% of the spin's nominal capacity measures D, which sets the two rates;
//   2. `--runs` runs at each utilisation, through the real CLI on this engine.
// With `--generators`, the same comparison on this host without containers (server on CPU 0, generator on CPU 1,
// taskset): the lab's open loop against autocannon at a fixed rate, raw and with HdrHistogram's correction for
// coordinated omission — the evidence the open loop was chosen on (docs/http.md, "Open-loop load").
// Usage: npm run bench:latency [-- --spin-ms 5 --duration 30 --runs 2 --generators --docs]
// (--docs rewrites the bench:latency block of docs/http.md from these figures; --from DIR reads an earlier
// invocation's folders.)
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse/sync';
import { execa } from 'execa';
import { responseQuantile } from '../images/workload/lib/md1.js';
import { isMeasured } from '../runner/domain/interference.js';
import { writeDocBlock } from './lib/doc-block.js';
import { describeRunSpread } from './lib/md1-runs.js';

const CLI = fileURLToPath(new URL('../runner/cli.js', import.meta.url));
const HTTP_DOC = fileURLToPath(new URL('../docs/http.md', import.meta.url));
const GOAL = 0.15;
const UTILISATIONS = [0.5, 0.8];
const { values } = parseArgs({
  options: {
    'spin-ms': { type: 'string', default: '5' },
    duration: { type: 'string', default: '30' },
    runs: { type: 'string', default: '2' },
    generators: { type: 'boolean', default: false },
    docs: { type: 'boolean', default: false },
    from: { type: 'string' },
  },
});
const spinMs = Number(values['spin-ms']);
const duration = Number(values.duration);
const dir = values.from ?? mkdtempSync(join(tmpdir(), 'bench-latency-'));

const experiment = (name, rate, { runs, seconds }) => `  ${name}:
    search: grid
    repetitions: ${runs}
    timeout: ${seconds + 60}
    memory: 512m
    matrix: {workload: [http], cpus: [1]}
    params:
      http: {work: spin, spin: {ms: ${spinMs}}, load: open, open: {rate: ${rate.toFixed(1)}, arrivals: poisson}, duration: ${seconds}, warmup: 3}
`;

async function runLab(file, out) {
  if (!values.from)
    await execa('node', [CLI, 'run', '--config', file, '--out', out, '--quiet'], {
      stdout: 'ignore',
      stderr: 'inherit',
    });
}

// One experiment's folder is --out itself; several each have a folder under it.
const readRows = (folder) => parse(readFileSync(join(folder, 'runs.csv'), 'utf8'), { columns: true, cast: castCell });

function castCell(value, context) {
  if (context.header) return value;
  if (value === 'true' || value === 'false') return value === 'true';
  return value !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
}

/** D of a run: its CPU time per response (the spin and node:http's own work, every thread of the container). */
const serviceMsOf = (row) => row.cpu_total_ms / row.requests_served;

function theoryOf(row) {
  const queue = { rate: row.arrival_rate / 1000, serviceMs: serviceMsOf(row) };
  const rho = queue.rate * queue.serviceMs;
  if (!(rho < 1)) return { rho, p50: null, p99: null };
  return { rho, p50: responseQuantile(0.5, queue), p99: responseQuantile(0.99, queue) };
}

const calibrationFile = join(dir, 'calibrate.yml');
if (!values.from)
  writeFileSync(
    calibrationFile,
    `experiments:\n${experiment('calibrate', (0.3 * 1000) / spinMs, { runs: 1, seconds: 10 })}`,
  );
await runLab(calibrationFile, join(dir, 'calibrate'));
const calibration = readRows(join(dir, 'calibrate')).find((row) => row.status === 'ok');
const serviceMs = serviceMsOf(calibration);
// The path: what a response takes besides the queue (the bridge between the two containers, the loader's own event
// loop, the server's wake-up), read where the queue's p50 is known exactly: the calibration's measured p50 less its
// M/D/1 p50 (D itself below ρ = 0.5, where most requests find the server idle). Taken off every measured percentile.
const pathMs = calibration.latency_p50_ms - theoryOf(calibration).p50;
console.error(
  `calibration: D = ${serviceMs.toFixed(3)} ms a response (spin ${spinMs} ms + node:http's own); path ${pathMs.toFixed(2)} ms`,
);

const mainFile = join(dir, 'md1.yml');
const rateAt = (rho) => (rho * 1000) / serviceMs;
if (!values.from) {
  const body = UTILISATIONS.map((rho) =>
    experiment(`rho-${rho * 100}`, rateAt(rho), { runs: Number(values.runs), seconds: duration }),
  ).join('');
  writeFileSync(mainFile, `experiments:\n${body}`);
}
await runLab(mainFile, join(dir, 'md1'));
const measured = UTILISATIONS.flatMap((rho) =>
  readRows(join(dir, 'md1', `rho-${rho * 100}`))
    .filter((row) => row.status === 'ok')
    .map((row) => ({ target: rho, row, theory: theoryOf(row) })),
);
// What one exact M/D/1 run as long as these reads: its p50 and p99 spread from run to run (scripts/lib/md1-runs.js).
measured.forEach((each, i) => {
  const queue = { rate: each.row.arrival_rate / 1000, serviceMs: serviceMsOf(each.row) };
  const windows = { warmupMs: 3000, measuredMs: duration * 1000 };
  each.spread = each.theory.p99 === null ? null : describeRunSpread(queue, windows, each.theory, { seed: i + 1 });
});

const lines = [
  `Open loop (Poisson) against the M/D/1 queue, spin ${spinMs} ms at cpus 1, ${duration} s measured a run; the path`,
  `(${pathMs.toFixed(2)} ms: the calibration's p50 less its M/D/1 p50) taken off each percentile; "a run of M/D/1":`,
  `the central 95% of an exact M/D/1 queue's own ${duration}-second runs at the run's rate and D (1000 simulated):`,
  formatRow([
    'utilisation',
    'rate',
    'D ms',
    'p50',
    '− path',
    'M/D/1',
    'a run of M/D/1',
    'p99',
    '− path',
    'M/D/1',
    'a run of M/D/1',
    'send lag p99',
    'counted',
  ]),
  ...measured.map(({ row, theory, spread }) =>
    formatRow([
      theory.rho.toFixed(3),
      row.arrival_rate.toFixed(1),
      serviceMsOf(row).toFixed(3),
      row.latency_p50_ms.toFixed(2),
      (row.latency_p50_ms - pathMs).toFixed(2),
      theory.p50?.toFixed(2) ?? '—',
      formatRange(spread?.p50),
      row.latency_p99_ms.toFixed(2),
      (row.latency_p99_ms - pathMs).toFixed(2),
      theory.p99?.toFixed(2) ?? '—',
      formatRange(spread?.p99),
      `${row.send_lag_p99_ms} ms`,
      isMeasured(row) ? 'yes' : row.loader_behind ? 'no: loader behind' : 'no: disturbed',
    ]),
  ),
  ...summarizeGoal(measured.filter(({ row }) => isMeasured(row))),
];
if (values.generators) lines.push('', ...(await compareGenerators(serviceMs)));
console.log(lines.join('\n'));
if (values.docs) writeDocs(lines);

function ratio(measuredValue, theory) {
  return theory ? `${(measuredValue / theory).toFixed(3)}×` : '—';
}

function formatRow(cells) {
  return cells.map((cell, i) => String(cell).padStart(i === 0 ? 11 : 13)).join(' ');
}

function formatRange(range) {
  return range ? `${range.low.toFixed(1)}–${range.high.toFixed(1)}` : '—';
}

/**
 * The goal (each percentile within 15% of the stationary theory), how often an exact M/D/1 run as long meets
 * it, and the goal that replaces it: with the path taken off, each percentile where an exact M/D/1 run would read it.
 */
function summarizeGoal(counted) {
  if (counted.length === 0)
    return ['no run counted (every one disturbed or behind): no verdict; run it on a quieter host'];
  const pairs = counted.flatMap(({ row, theory, spread }) =>
    ['p50', 'p99']
      .filter((key) => theory[key])
      .map((key) => ({ got: row[`latency_${key}_ms`], expected: theory[key], spread: spread[key] })),
  );
  const worst = Math.max(...pairs.map(({ got, expected }) => Math.abs(got / expected - 1)));
  const perfect = Math.min(...pairs.map(({ spread }) => spread.withinShare));
  const inside = pairs.filter(({ got, spread }) => got - pathMs >= spread.low && got - pathMs <= spread.high);
  return [
    `worst distance from theory over ${counted.length} counted run(s): ${(100 * worst).toFixed(1)}% (goal ≤ ${100 * GOAL}%): ${worst <= GOAL ? 'met' : 'not met'};`,
    `  an exact M/D/1 queue's own ${duration}-second runs meet that goal in as few as ${(100 * perfect).toFixed(0)}% of runs (its least favourable percentile here)`,
    `with the path taken off, ${inside.length} of ${pairs.length} percentiles lie where an exact M/D/1 run as long reads them (95%; about ${(0.05 * pairs.length).toFixed(1)} outside by chance)`,
  ];
}

/** On this host, no containers: the spin server on CPU 0, each generator on CPU 1 in turn. */
async function compareGenerators(hostServiceMs) {
  const server = spawn(
    'taskset',
    ['-c', '0', 'node', fileURLToPath(new URL('lib/spin-server.js', import.meta.url)), '--ms', String(spinMs)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const port = await new Promise((resolve) => server.stdout.once('data', (chunk) => resolve(String(chunk).trim())));
  const stats = async () => (await fetch(`http://127.0.0.1:${port}/__stats`)).json();
  const out = [`Load generators on this host (server on CPU 0, generator on CPU 1), ${duration} s each:`];
  out.push(formatRow(['utilisation', 'generator', 'D ms', 'p50', 'M/D/1', 'ratio', 'p99', 'M/D/1', 'ratio']));
  try {
    for (const rho of UTILISATIONS) {
      for (const kind of ['open', 'autocannon', 'autocannon-hdr']) {
        const before = await stats();
        const rate = (rho * 1000) / hostServiceMs;
        const line = execFileSync(
          'taskset',
          [
            '-c',
            '1',
            'node',
            fileURLToPath(new URL('lib/latency-generator.js', import.meta.url)),
            '--kind',
            kind,
            '--port',
            port,
            '--rate',
            String(rate),
            '--seconds',
            String(duration),
          ],
          { encoding: 'utf8' },
        );
        const after = await stats();
        const got = JSON.parse(line);
        const queue = { rate: rate / 1000, serviceMs: (after.cpu_ms - before.cpu_ms) / (after.served - before.served) };
        const fits = queue.rate * queue.serviceMs < 1;
        const p50 = fits ? responseQuantile(0.5, queue) : null;
        const p99 = fits ? responseQuantile(0.99, queue) : null;
        out.push(
          formatRow([
            (queue.rate * queue.serviceMs).toFixed(3),
            kind,
            queue.serviceMs.toFixed(3),
            got.p50.toFixed(2),
            p50?.toFixed(2) ?? '—',
            ratio(got.p50, p50),
            got.p99.toFixed(2),
            p99?.toFixed(2) ?? '—',
            ratio(got.p99, p99),
          ]),
        );
      }
    }
  } finally {
    server.kill();
  }
  return out;
}

function writeDocs(printed) {
  const stamp = new Date().toISOString().slice(0, 10);
  writeDocBlock(HTTP_DOC, 'bench:latency', [
    `Generated by \`npm run bench:latency -- --docs\` (${stamp}; spin ${spinMs} ms, ${duration} s a run, ${values.runs} run(s) a utilisation); do not edit by hand.`,
    '',
    '```text',
    ...printed,
    '```',
  ]);
  console.error(`wrote the bench:latency block of ${HTTP_DOC}`);
}
