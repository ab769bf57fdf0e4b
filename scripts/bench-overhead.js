#!/usr/bin/env node
// Benchmark: the runner's per-run overhead beside the floor, measured in the same session.
//   runner overhead = runner wall time for one run (create → start → wait → inspect → remove)
//                     minus the workload's own wall_ms, for a near-empty pbkdf2 run;
//   floor           = a bare `docker run --rm <image> node -e 0` through the docker CLI.
// The two are interleaved so the machine's drift hits both alike; the figure that counts is the
// ratio of medians (goal: ≤ 1, the runner costs no more than the bare CLI). Usage:
//   npm run bench [-- --runs 15]
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { connectEngine } from '../runner/docker/engine.js';
import { DEFAULT_NODE_MAJOR, ensureImages } from '../runner/docker/images.js';
import { createDockerExecutor } from '../runner/docker/executor.js';
import { planExperiments } from '../runner/plan/plan-runs.js';
import { parseResultLine } from '../runner/collect/parse-result.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '15' } } });
const runs = Number(values.runs);

const engine = await connectEngine({ setup: true });
const images = await ensureImages(engine.docker, { nodeMajors: [DEFAULT_NODE_MAJOR], onProgress: (line) => console.error(line) });
const image = images.get(DEFAULT_NODE_MAJOR).tag;
const executor = createDockerExecutor(engine.docker, images);
const [plan] = planExperiments(
  {
    file: 'bench',
    experiments: [{ name: 'bench-overhead', repetitions: runs, timeout: 60, memory_bytes: 2 ** 30, env: {}, include: [], exclude: [], matrix: { workload: ['pbkdf2'] }, params: { pbkdf2: { tasks: 1, iterations: 1, keylen: 16, digest: 'sha256', sync: false } } }],
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

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms) => `${ms.toFixed(1)} ms`;
const overhead = median(runner.map((r) => r.overhead));
const bare = median(floor);
console.log(`engine ${engine.version.Version}, image ${image}, ${runs} interleaved pairs`);
console.log(`runner: wall per run ${fmt(median(runner.map((r) => r.total)))}, workload ${fmt(median(runner.map((r) => r.workload)))}, overhead ${fmt(overhead)} (median)`);
console.log(`floor:  docker run --rm ${image} node -e 0: ${fmt(bare)} (median)`);
console.log(`ratio overhead / floor: ${(overhead / bare).toFixed(2)} (goal ≤ 1.00)`);

async function timeFloor(tag) {
  const began = performance.now();
  await execa('docker', ['run', '--rm', '--network', 'none', '--entrypoint', 'node', tag, '-e', '0']);
  return performance.now() - began;
}
