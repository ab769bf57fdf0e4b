#!/usr/bin/env node
// Benchmark: what `--slots 2` buys and what it costs, on this engine, in one session.
//   the same 16-run single-CPU pbkdf2 matrix (cpuset "0": one CPU per run) run serially (default) and
//   with --slots 2 (two runs at once, on CPUs 0 and 1), through the real CLI;
//   wall-clock ratio   = matrix span with slots / serial span (first run start → last run end; goal ≤ 0.55);
//   interference       = change of the per-run wall_ms median, slots vs serial (goal ≤ 5 %): what a
//                        neighbour on the other CPU (shared caches, memory bandwidth) costs each run.
// The two modes alternate (serial, slots, slots, serial, … for --rounds) so a shared machine's drift hits
// both alike. Usage: npm run bench:slots [-- --rounds 2 --iterations 1000000] [-- --docs]
// (--docs also writes docs/bench-slots.md, whose `Measured by` line docs/README.md quotes.)
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse/sync';
import { execa } from 'execa';
import { median } from '../runner/stats/statistics.js';

const CLI = fileURLToPath(new URL('../runner/cli.js', import.meta.url));
const DOCS_FILE = fileURLToPath(new URL('../docs/bench-slots.md', import.meta.url));
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '2' },
    iterations: { type: 'string', default: '1000000' },
    docs: { type: 'boolean', default: false },
  },
});
const rounds = Number(values.rounds);

const dir = mkdtempSync(join(tmpdir(), 'bench-slots-'));
const config = join(dir, 'experiments.yml');
writeFileSync(
  config,
  `experiments:
  bench-slots:
    repetitions: 4
    timeout: 120
    memory: 256m
    matrix:
      workload: [pbkdf2]
      cpuset: ["0"]
      uv_threadpool_size: [1, 2, 4, 8]
    params:
      pbkdf2: {tasks: 4, iterations: ${Number(values.iterations)}, keylen: 64, digest: sha512}
`,
);

const results = { serial: [], slots: [] };
// ABBA: serial, slots, slots, serial, serial, slots, …
const order = Array.from({ length: rounds }, (_, round) =>
  round % 2 === 0 ? ['serial', 'slots'] : ['slots', 'serial'],
).flat();
for (const [index, mode] of order.entries()) {
  const outDir = join(dir, `${index}-${mode}`);
  const began = performance.now();
  const run = await execa(
    'node',
    [
      CLI,
      'run',
      '--config',
      config,
      '--out',
      outDir,
      '--seed',
      String(index + 1),
      ...(mode === 'slots' ? ['--slots', '2'] : []),
    ],
    { reject: false, all: true },
  );
  const processMs = performance.now() - began;
  if (run.exitCode !== 0) throw new Error(`${mode} matrix failed (exit ${run.exitCode}):\n${run.all}`);
  const rows = parse(readFileSync(join(outDir, 'runs.csv'), 'utf8'), { columns: true });
  const spanMs =
    Math.max(...rows.map((row) => Date.parse(row.finished_at))) -
    Math.min(...rows.map((row) => Date.parse(row.started_at)));
  results[mode].push({
    spanMs,
    processMs,
    wallMs: rows.map((row) => Number(row.wall_ms)),
    slots: [...new Set(rows.map((row) => row.slot_cpuset))].sort(),
  });
  console.error(
    `${mode}: matrix ${(spanMs / 1000).toFixed(1)} s (process ${(processMs / 1000).toFixed(1)} s), ${rows.length} runs on ${results[mode].at(-1).slots.join(' + ')}`,
  );
}

const sum = (xs) => xs.reduce((total, x) => total + x, 0);
const summarize = (mode) => ({
  span: sum(results[mode].map((r) => r.spanMs)) / results[mode].length,
  process: sum(results[mode].map((r) => r.processMs)) / results[mode].length,
  wall: median(results[mode].flatMap((r) => r.wallMs)),
  runs: results[mode].flatMap((r) => r.wallMs).length,
});
const serial = summarize('serial');
const slots = summarize('slots');
const ratio = slots.span / serial.span;
const change = (slots.wall - serial.wall) / serial.wall;
const { stdout: load } = await execa('cat', ['/proc/loadavg']);
const loadNow = load.split(' ').slice(0, 3).join(' ');
const percent = `${change >= 0 ? '+' : ''}${(change * 100).toFixed(1)} %`;
const lines = [
  `16-run single-CPU pbkdf2 matrix, ${rounds} round(s) each, alternated; load average at the end: ${loadNow}`,
  `serial:    matrix ${(serial.span / 1000).toFixed(1)} s, process ${(serial.process / 1000).toFixed(1)} s, per-run wall_ms median ${serial.wall.toFixed(1)} (${serial.runs} runs)`,
  `--slots 2: matrix ${(slots.span / 1000).toFixed(1)} s, process ${(slots.process / 1000).toFixed(1)} s, per-run wall_ms median ${slots.wall.toFixed(1)} (${slots.runs} runs)`,
  `wall-clock ratio slots / serial: ${ratio.toFixed(2)} (goal ≤ 0.55)`,
  `per-run wall_ms median change (interference): ${percent} (goal ≤ 5 %)`,
];
console.log(lines.join('\n'));
const readmeLine = `Measured by \`npm run bench:slots\` (load average ${loadNow.split(' ')[0]} at the end): \`--slots 2\` took ${ratio.toFixed(2)} of the serial wall clock (goal ≤ 0.55) and moved the per-run median by ${percent} (goal ≤ 5 %).`;
if (values.docs) {
  writeFileSync(
    DOCS_FILE,
    `# Benchmark: --slots 2 against serial runs\n\nWritten by \`npm run bench:slots -- --docs\` (${new Date().toISOString().slice(0, 10)}); do not edit by hand.\n\n${readmeLine}\n\n\`\`\`\n${lines.join('\n')}\n\`\`\`\n\nOn a shared machine both figures move with the neighbours' load; how each is measured: [scripts/bench-slots.js](../scripts/bench-slots.js), what they mean: [scale.md](scale.md).\n`,
  );
  console.log(`wrote ${DOCS_FILE}`);
}
