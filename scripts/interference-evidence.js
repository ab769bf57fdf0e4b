#!/usr/bin/env node
// Evidence for the disturbed-run rule (issue 21): does interference_pct mark the slow runs?
//   node scripts/interference-evidence.js run CONFIG OUT [--busy alternate|alternate-nice-20]
//     runs `npm run matrix -- --config CONFIG --out OUT --keep-disturbed`, with busy loops on the host beside every
//     other run (one per CPU at the default priority, or one at nice -20, which needs root), started when the runner
//     prints a run's start line (before its container starts) and stopped at the next one; OUT/busy.csv says which
//     runs had them.
//   node scripts/interference-evidence.js show DIR [DIR...]
//     per run: wall_ms / the cell's median, interference_pct, cpu_per_task_dev_pct, busy or not; Spearman's rho of
//     the wall ratio against each, and the interference of the runs with and without busy loops.
// The folders in docs/interference/ were made with `run` (their README says how).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { sampleCorrelation } from 'simple-statistics';
import { LabError } from '../runner/errors.js';
import { parseCommandLine, runCommand, isEntryPoint } from '../runner/commands/command-line.js';
import { readResults } from '../runner/results/read-results.js';
import { median } from '../runner/stats/statistics.js';

const CLI = fileURLToPath(new URL('../runner/cli.js', import.meta.url));
const USAGE = `Usage: node scripts/interference-evidence.js run CONFIG OUT [--busy alternate|alternate-nice-20] [--seed N]
       node scripts/interference-evidence.js show DIR [DIR...]`;
const BUSY_MODES = ['none', 'alternate', 'alternate-nice-20'];

export async function main(argv, { stdout = process.stdout } = {}) {
  const {
    values,
    positionals: [command, ...rest],
  } = parseCommandLine(argv, {
    allowPositionals: true,
    usage: USAGE,
    options: { busy: { type: 'string', default: 'none' }, seed: { type: 'string', default: '2111' } },
  });
  if (command === 'run' && rest.length === 2 && BUSY_MODES.includes(values.busy)) {
    await runWithBusyLoops({ config: rest[0], out: rest[1], busy: values.busy, seed: values.seed });
    return 0;
  }
  if (command === 'show' && rest.length > 0) {
    for (const dir of rest)
      stdout.write(
        `${formatEvidence(dir, summarizeEvidence(readResults(dir, { keepDisturbed: true }), readBusy(dir)))}\n`,
      );
    return 0;
  }
  throw new LabError(
    'ERR_USAGE',
    `expected \`run CONFIG OUT\` or \`show DIR...\`${BUSY_MODES.includes(values.busy) ? '' : `; --busy is one of ${BUSY_MODES.join(', ')}`}`,
    { hint: USAGE },
  );
}

async function runWithBusyLoops({ config, out, busy, seed }) {
  const child = execa(
    process.execPath,
    [CLI, 'run', '--config', config, '--out', out, '--keep-disturbed', '--seed', seed],
    {
      reject: false,
    },
  );
  let loops = [];
  const stopLoops = () => {
    for (const loop of loops) loop.kill('SIGKILL');
    loops = [];
  };
  const marks = [];
  let pending = '';
  child.stderr.on('data', (chunk) => {
    process.stderr.write(chunk);
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop();
    for (const line of lines) {
      // `[k/n] … rep r`: the runner's line as a run starts (a pipe gets plain lines, not the bar).
      const match = /^\[(\d+)\/\d+\].* rep (\d+)/.exec(line);
      if (!match) continue;
      const loaded = busy !== 'none' && Number(match[1]) % 2 === 0;
      stopLoops();
      if (loaded) loops = startBusyLoops(busy);
      marks.push({ run: Number(match[1]), repetition: Number(match[2]), busy: loaded });
    }
  });
  await child;
  stopLoops();
  writeFileSync(
    `${out}/busy.csv`,
    `run,repetition,busy\n${marks.map((mark) => `${mark.run},${mark.repetition},${mark.busy}`).join('\n')}\n`,
  );
}

function startBusyLoops(mode) {
  const spin = () => execa(process.execPath, ['-e', 'for (;;) {}'], { reject: false });
  if (mode === 'alternate') return os.cpus().map(spin);
  const loop = spin();
  os.setPriority(loop.pid, -20);
  return [loop];
}

/** busy.csv → repetition → whether busy loops ran beside it (empty without the file). */
export function readBusy(dir) {
  const path = `${dir}/busy.csv`;
  if (!existsSync(path)) return new Map();
  return new Map(
    readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(','))
      .map(([, repetition, busy]) => [Number(repetition), busy === 'true']),
  );
}

/**
 * A one-cell folder's runs against its median wall time.
 * @returns {{ runs: object[], medianWallMs: number, rho: { interference: number, cpuDev: number|null },
 *   groups: object[] }}
 */
export function summarizeEvidence(results, busy = new Map()) {
  const ok = results.runs.filter((run) => run.status === 'ok' && run.warmup !== true);
  const medianWallMs = median(ok.map((run) => run.wall_ms));
  const runs = ok.map((run) => ({
    repetition: run.repetition,
    busy: busy.get(run.repetition) ?? false,
    wallRatio: run.wall_ms / medianWallMs,
    interference: run.interference_pct,
    cpuDev: run.cpu_per_task_dev_pct ?? null,
  }));
  const ratios = runs.map((run) => run.wallRatio);
  const groups = [false, true]
    .map((loaded) => runs.filter((run) => run.busy === loaded))
    .filter((group) => group.length > 0)
    .map((group) => ({
      busy: group[0].busy,
      n: group.length,
      interference: median(group.map((run) => run.interference)),
      wallRatio: median(group.map((run) => run.wallRatio)),
    }));
  return {
    runs,
    medianWallMs,
    rho: {
      interference: spearman(
        ratios,
        runs.map((run) => run.interference),
      ),
      cpuDev: runs.every((run) => run.cpuDev !== null)
        ? spearman(
            ratios,
            runs.map((run) => run.cpuDev),
          )
        : null,
    },
    groups,
  };
}

/** Spearman's rho: Pearson's r of the ranks (ties take their mean rank). */
export function spearman(x, y) {
  return sampleCorrelation(rank(x), rank(y));
}

function rank(values) {
  const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value);
  const ranks = [];
  for (let start = 0; start < order.length;) {
    let end = start;
    while (end + 1 < order.length && order[end + 1].value === order[start].value) end++;
    for (let k = start; k <= end; k++) ranks[order[k].index] = (start + end) / 2 + 1;
    start = end + 1;
  }
  return ranks;
}

function formatEvidence(dir, { runs, medianWallMs, rho, groups }) {
  const fixed = (value, digits) => (value === null || value === undefined ? '' : value.toFixed(digits));
  return [
    dir,
    'rep  busy   wall/median  interference_pct  cpu_per_task_dev_pct',
    ...runs.map(
      (run) =>
        `${String(run.repetition).padEnd(4)} ${String(run.busy).padEnd(6)} ${fixed(run.wallRatio, 3).padStart(11)}  ${fixed(run.interference, 1).padStart(16)}  ${fixed(run.cpuDev, 1).padStart(20)}`,
    ),
    `median wall_ms ${fixed(medianWallMs, 0)}; Spearman rho of wall/median with interference_pct ${fixed(rho.interference, 3)}, with cpu_per_task_dev_pct ${fixed(rho.cpuDev, 3)}`,
    ...groups.map(
      (group) =>
        `${group.busy ? 'with busy loops   ' : 'without busy loops'}: ${group.n} runs, median interference_pct ${fixed(group.interference, 1)}, median wall/median ${fixed(group.wallRatio, 3)}`,
    ),
    '',
  ].join('\n');
}

if (isEntryPoint(import.meta.url)) runCommand(main);
