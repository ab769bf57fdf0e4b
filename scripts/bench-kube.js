#!/usr/bin/env node
// Benchmark: what a run costs on Kubernetes against Docker on the same machine, and what the lab cluster's cycle
// costs, measured in one invocation (needs root: it starts and stops the lab of scripts/kube-lab.sh).
//   cycle     = `kube-lab.sh up` from nothing (binaries and images cached) and `kube-lab.sh down`;
//   per run   = the backend's wall time for one near-empty pbkdf2 run minus the workload's own wall_ms, for the
//               Kubernetes backend (create the Job → pod ended → logs → delete) and the Docker backend (create →
//               start → wait → inspect → remove), interleaved so that the machine's drift hits both alike;
//   floor     = a bare `docker run --rm <image> node -e 0`.
// The ratios are the figures to compare; the milliseconds move with the machine. Usage:
//   sudo npm run bench:kube [-- --runs 10] [-- --docs]   (--docs rewrites the figures in docs/kubernetes.md)
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { DEFAULT_NODE_MAJOR } from '../runner/domain/axes.js';
import { createDockerExecutor } from '../runner/docker/runs/executor.js';
import { openCluster } from '../runner/kubernetes/cluster.js';
import { createKubernetesExecutor } from '../runner/kubernetes/executor.js';
import { planExperiments } from '../runner/plan/plan-runs.js';
import { parseResultLine } from '../runner/collect/parse-result.js';
import { median } from '../runner/stats/statistics.js';
import { readyBenchImage, timeFloor } from './lib/bench-docker.js';

const LAB = fileURLToPath(new URL('./kube-lab.sh', import.meta.url));
const DOCS_FILE = fileURLToPath(new URL('../docs/kubernetes.md', import.meta.url));
const BEGIN = '<!-- bench:kube begin: written by `npm run bench:kube -- --docs`; do not edit by hand -->';
const END = '<!-- bench:kube end -->';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '10' }, docs: { type: 'boolean', default: false } },
});
const runs = Number(values.runs);

const { engine, images, image } = await readyBenchImage();
const [plan] = planExperiments(
  {
    file: 'bench',
    experiments: [
      {
        name: 'bench-kube',
        repetitions: runs,
        timeout: 60,
        memory_bytes: 2 ** 28,
        env: {},
        include: [],
        exclude: [],
        matrix: { workload: ['pbkdf2'], cpus: [0.5] },
        params: { pbkdf2: { tasks: 1, iterations: 1, keylen: 16, digest: 'sha256', sync: false } },
      },
    ],
  },
  { defaultNodeMajor: DEFAULT_NODE_MAJOR },
);

// The cycle from nothing: a lab left up by someone is taken down first, so that `up` is measured whole.
if ((await lab('status', { reject: false })).exitCode === 0) {
  console.error('bench:kube: the lab is up; taking it down first to time a whole cycle');
  await lab('down');
}
const up = await timed(() => lab('up', { args: ['--image', image] }));
const kubeconfig = up.value.stdout.trim().split('\n').at(-1);
const cycle = { upMs: up.ms };
try {
  const cluster = openCluster({ kubeconfig, context: 'kube-lab', namespace: 'node-threads-lab' });
  const kube = createKubernetesExecutor(cluster, { images, imageRef: (tag) => tag, pullPolicy: 'Never' });
  const docker = createDockerExecutor(engine.docker, images);
  const samples = { kube: [], docker: [], floor: [] };
  // One of each first, unmeasured: page cache, the first pod's and the first container's costs.
  await measureRun(kube, plan.runs[0]);
  await measureRun(docker, plan.runs[0]);
  await timeFloor(image);
  for (const run of plan.runs) {
    samples.kube.push(await measureRun(kube, run));
    samples.docker.push(await measureRun(docker, run));
    samples.floor.push(await timeFloor(image));
  }
  cycle.downMs = (await timed(() => lab('down'))).ms;
  report(samples, cycle);
} finally {
  if (cycle.downMs === undefined) await lab('down', { reject: false });
}

async function measureRun(executor, run) {
  const began = performance.now();
  const raw = await executor.execute(run);
  const total = performance.now() - began;
  const result = parseResultLine(raw.stdout);
  if (!result) throw new Error(`benchmark run failed: ${raw.stderr}`);
  return total - result.wall_ms;
}

function report(samples, { upMs, downMs }) {
  const kube = median(samples.kube);
  const docker = median(samples.docker);
  const floor = median(samples.floor);
  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  const range = (list) => `${s(Math.min(...list))}–${s(Math.max(...list))}`;
  const lines = [
    `image ${image}, Docker ${engine.version.Version}, ${runs} interleaved runs of each (median, range)`,
    `per-run overhead   Kubernetes ${s(kube)} (${range(samples.kube)})   Docker ${s(docker)} (${range(samples.docker)})   bare docker run ${s(floor)} (${range(samples.floor)})`,
    `ratio              Kubernetes / Docker backend ${(kube / docker).toFixed(2)}   Kubernetes / bare docker run ${(kube / floor).toFixed(2)}`,
    `lab cycle          up ${s(upMs)} (binaries and images cached)   down ${s(downMs)}`,
  ];
  console.log(lines.join('\n'));
  if (!values.docs) return;
  const text = readFileSync(DOCS_FILE, 'utf8');
  const at = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (at < 0 || end < at) throw new Error(`${DOCS_FILE} has no ${BEGIN} … ${END} section`);
  const section = `${BEGIN}\nMeasured by \`npm run bench:kube -- --docs\` on ${new Date().toISOString().slice(0, 10)}:\n\n\`\`\`\n${lines.join('\n')}\n\`\`\`\n`;
  writeFileSync(DOCS_FILE, text.slice(0, at) + section + text.slice(end));
  console.log(`wrote ${DOCS_FILE}`);
}

function lab(command, { args = [], reject = true } = {}) {
  return execa('bash', [LAB, command, ...args], { reject, stderr: 'inherit' });
}

async function timed(step) {
  const began = performance.now();
  const value = await step();
  return { value, ms: performance.now() - began };
}
