#!/usr/bin/env node
// Benchmark: what the runner itself costs, measured in the same session.
//   per-run overhead = runner wall time for one run (create → start → wait → inspect → remove)
//                      minus the workload's own wall_ms, for a near-empty pbkdf2 run;
//   floor            = a bare `docker run --rm <image> node -e 0` through the docker CLI;
//   start-up         = spawning `node runner/cli.js` on a 2-run matrix → its first container started
//                      (the engine's own event), images cached;
//   exit             = its last line of output → the process gone.
// Overhead and floor are interleaved so the machine's drift hits both alike; the figure that counts is
// the ratio of medians (goal: ≤ 1, the runner costs no more than the bare CLI). Usage:
//   npm run bench [-- --runs 15] [-- --docs]   (--docs also writes docs/bench.md and
// runner/estimate/bench-figures.json,
//   the figures `plan` estimates a matrix's time from: runner/estimate/estimate.js)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_NODE_MAJOR } from '../runner/domain/axes.js';
import { createDockerExecutor } from '../runner/docker/runs/executor.js';
import { planExperiments } from '../runner/plan/plan-runs.js';
import { parseResultLine } from '../runner/collect/parse-result.js';
import { median } from '../runner/stats/statistics.js';
import { timeCommand } from './lib/time-cli.js';
import { readyBenchImage, timeFloor } from './lib/bench-docker.js';

const CLI = fileURLToPath(new URL('../runner/cli.js', import.meta.url));
const TINY = fileURLToPath(new URL('../test/fixtures/integration/tiny.yml', import.meta.url));
const DOCS_FILE = fileURLToPath(new URL('../docs/bench.md', import.meta.url));
const FIGURES_FILE = fileURLToPath(new URL('../runner/estimate/bench-figures.json', import.meta.url));

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '15' }, docs: { type: 'boolean', default: false } },
});
const runs = Number(values.runs);

const { engine, images, image } = await readyBenchImage();
const executor = createDockerExecutor(engine.docker, images);
const [plan] = planExperiments(
  {
    file: 'bench',
    experiments: [
      {
        name: 'bench-overhead',
        repetitions: runs,
        timeout: 60,
        memory_bytes: 2 ** 30,
        env: {},
        include: [],
        exclude: [],
        matrix: { workload: ['pbkdf2'] },
        params: { pbkdf2: { tasks: 1, iterations: 1, keylen: 16, digest: 'sha256', sync: false } },
      },
    ],
  },
  { defaultNodeMajor: DEFAULT_NODE_MAJOR },
);

const runner = [];
const floor = [];
// One of each first, unmeasured: page cache and the engine's first-container costs.
await executor.execute(plan.runs[0]);
await timeFloor(image);
for (const run of plan.runs) {
  const began = performance.now();
  const raw = await executor.execute(run);
  const total = performance.now() - began;
  const result = parseResultLine(raw.stdout);
  if (!result) throw new Error(`benchmark run failed: ${raw.stderr}`);
  runner.push({ total, overhead: total - result.wall_ms, workload: result.wall_ms });
  floor.push(await timeFloor(image));
}

// Whole command lines: fewer, since each is a full matrix of 2 runs.
const cliRuns = [];
const outRoot = mkdtempSync(join(tmpdir(), 'lab-bench-'));
try {
  for (let i = 0; i < Math.max(3, Math.ceil(runs / 3)); i += 1) {
    const timed = await timeCommand(
      [process.execPath, CLI, 'run', '--config', TINY, '--out', join(outRoot, String(i))],
      {
        docker: engine.docker,
      },
    );
    if (timed.exitCode !== 0 || timed.startupMs === undefined)
      throw new Error(`benchmark matrix failed:\n${timed.lines.join('\n')}`);
    cliRuns.push(timed);
  }
} finally {
  rmSync(outRoot, { recursive: true, force: true });
}

const fmt = (ms) => `${ms.toFixed(1)} ms`;
const overhead = median(runner.map((r) => r.overhead));
const bare = median(floor);
const created = median(cliRuns.map((r) => r.createdMs));
const startup = median(cliRuns.map((r) => r.startupMs));
const linger = median(cliRuns.map((r) => r.lingerMs));
const lines = [
  `engine ${engine.version.Version}, image ${image}, ${runs} interleaved pairs, ${cliRuns.length} whole matrices`,
  `runner: wall per run ${fmt(median(runner.map((r) => r.total)))}, workload ${fmt(median(runner.map((r) => r.workload)))}, overhead ${fmt(overhead)} (median)`,
  `floor:  docker run --rm ${image} node -e 0: ${fmt(bare)} (median)`,
  `ratio overhead / floor: ${(overhead / bare).toFixed(2)} (goal ≤ 1.00)`,
  `start-up: command → first container created ${fmt(created)}, started ${fmt(startup)} (median; goal ≤ 500 ms), ${(startup / bare).toFixed(2)} × the floor`,
  `exit: last line → process gone ${fmt(linger)} (median; goal ≤ 100 ms)`,
];
const readmeLine = `Measured by \`npm run bench\` on a shared 2-core VM (Docker ${engine.version.Version}), where a bare \`docker run --rm\` took ${Math.round(bare)} ms: start-up to the first container ${Math.round(startup)} ms, exit ${Math.round(linger)} ms after the last line, per-run overhead ${(overhead / bare).toFixed(2)} × the bare \`docker run\`.`;
console.log(lines.join('\n'));
console.log(`README: ${readmeLine}`);
if (values.docs) {
  writeFileSync(
    DOCS_FILE,
    `# Benchmark\n\nWritten by \`npm run bench -- --docs\` (${new Date().toISOString().slice(0, 10)}); do not edit by hand.\n\n${readmeLine}\n\n\`\`\`\n${lines.join('\n')}\n\`\`\`\n\nThe milliseconds move with the machine; the ratio is the figure to compare. How each is measured: [scripts/bench-overhead.js](../scripts/bench-overhead.js).\n`,
  );
  console.log(`wrote ${DOCS_FILE}`);
  const figures = {
    written: new Date().toISOString().slice(0, 10),
    engine: engine.version.Version,
    overhead_ms: round(overhead),
    floor_ms: round(bare),
    startup_ms: round(startup),
    exit_ms: round(linger),
  };
  writeFileSync(FIGURES_FILE, `${JSON.stringify(figures, null, 2)}\n`);
  console.log(`wrote ${FIGURES_FILE}`);
}

function round(ms) {
  return Math.round(ms * 10) / 10;
}
