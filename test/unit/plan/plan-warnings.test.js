// Valid configs that do not do what they look like: warned with their place in the file.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseYaml, validateConfig } from '../../../runner/config/load-config.js';
import { planExperiments } from '../../../runner/plan/plan-runs.js';
import { findPlanWarnings, formatWarning } from '../../../runner/plan/plan-warnings.js';

const HOST = { cpus: 2, cpuIds: [0, 1] };

function warningsOf(text) {
  const { raw, locate } = parseYaml(text, 'experiments.yml');
  const config = validateConfig(raw, { file: 'experiments.yml', locate, host: HOST });
  return planExperiments(config, { defaultNodeMajor: 24 })
    .flatMap((plan) => findPlanWarnings(plan, config))
    .map(formatWarning);
}

test("a quota above the cpuset's CPU count is warned once per pair, at the experiment", () => {
  const warnings = warningsOf(`experiments:
  q:
    matrix: {workload: pbkdf2, cpus: [0.5, 2], cpuset: ["0", "0-1"], workers: [0, 1]}
`);
  expect(warnings).toEqual([
    expect.stringMatching(
      /^experiments\.yml:3:5: experiments\.q: warning: cells with cpus 2 and cpuset "0" get at most 1 CPU/,
    ),
  ]);
});

test('an include entry that extends every cell is warned at the entry', () => {
  const warnings = warningsOf(`experiments:
  q:
    matrix: {workload: argon2, node: [22, 24]}
    include:
      - {cpus: 1}
      - {workload: argon2, node: 26}
`);
  expect(warnings).toEqual([
    expect.stringMatching(
      /^experiments\.yml:5:9: experiments\.q\.include\[0\]: warning: this include entry extends every one of the matrix's 2 cells/,
    ),
  ]);
});

test('include entries that together give every cell the same new value are warned', () => {
  const warnings = warningsOf(`experiments:
  offload:
    matrix: {workload: [pbkdf2], cpus: [1, 2], workers: [0, 2]}
    include:
      - {workload: pbkdf2, cpus: 1, cluster: 2}
      - {workload: pbkdf2, cpus: 2, cluster: 2}
`);
  expect(warnings).toEqual([
    expect.stringMatching(
      /^experiments\.yml:5:9: experiments\.offload\.include\[0\]: warning: every cell gets cluster: 2 from include entries \[0\], \[1\]/,
    ),
  ]);
});

test('the usual uses of include are not warned', () => {
  expect(
    warningsOf(`experiments:
  q:
    matrix: {workload: pbkdf2, cpus: [1, 2], uv_threadpool_size: [1, 4]}
    include:
      - {cpus: 1, cpuset: "0"}
      - {workload: argon2, cpus: 2}
      - {workload: pbkdf2, cluster: 2, cpus: 2, uv_threadpool_size: 8}
  one-cell:
    matrix: {workload: pbkdf2}
    include:
      - {cpus: 1}
`),
  ).toEqual([]);
});

test("parameters nothing reads are warned at their key: a workload no cell runs, http's work beside app, another work's group", () => {
  const dir = mkdtempSync(join(tmpdir(), 'ignored-'));
  writeFileSync(join(dir, 'app.mjs'), 'export default function handler(req, res) { res.end(); }\n');
  const { raw, locate } = parseYaml(
    `experiments:
  web:
    matrix: {workload: [http]}
    params:
      http: {app: {file: app.mjs}, work: spin, spin: {ms: 3}}
      argon2: {tasks: 4}
  lab:
    matrix: {workload: [http]}
    params:
      http: {work: spin, pbkdf2: {iterations: 10}, burst: {requests: 3}}
`,
    join(dir, 'experiments.yml'),
  );
  const config = validateConfig(raw, { file: 'experiments.yml', locate, host: HOST, configDir: dir });
  const warnings = planExperiments(config, { defaultNodeMajor: 24 })
    .flatMap((plan) => findPlanWarnings(plan, config))
    .map(formatWarning)
    // These http cells have no CPU budget, so their loader shares the CPUs: warned, but not this test's subject.
    .filter((warning) => !warning.includes('cannot be measured cleanly on this'));
  expect(warnings).toEqual([
    "experiments.yml:5:36: experiments.web.params.http.work: warning: `work` is ignored beside `app:`: your app answers the requests, the lab's work never runs\n  remove `work:`",
    "experiments.yml:5:48: experiments.web.params.http.spin: warning: `spin` is ignored beside `app:`: your app answers the requests, the lab's work never runs\n  remove `spin:`",
    'experiments.yml:6:7: experiments.web.params.argon2: warning: `params.argon2` is ignored: no cell runs the argon2 workload\n  add argon2 to `workload:` in the matrix, or remove `params.argon2`',
    'experiments.yml:10:26: experiments.lab.params.http.pbkdf2: warning: `pbkdf2:` is ignored: `work` is spin\n  remove `pbkdf2:`, or set `work: pbkdf2`',
    'experiments.yml:10:52: experiments.lab.params.http.burst: warning: `burst:` is ignored: `load` is loop\n  remove `burst:`, or set `load: burst`',
  ]);
});

test('an http cell whose budget leaves no CPU to the load generator is warned at its cpus; one with a CPU to spare, a pinned one with one free, or a loader placed by hand, are not', () => {
  const warnings = warningsOf(`experiments:
  web:
    matrix: {workload: [http], cpus: [1, 2]}
  pinned:
    matrix: {workload: [http], cpuset: ["0"]}
  by-hand:
    matrix: {workload: [http], cpus: [2]}
    params:
      http: {loader: {cpuset: none}}
`);
  expect(warnings).toEqual([
    `experiments.yml:3:42: experiments.web.matrix.cpus[1]: warning: 2 CPUs cannot be measured cleanly on this 2-CPU host: the load generator needs a CPU of its own, and shares the server's in those http cells (their budget needs 2 of the 2); their answer will say so, with no recommendation
  the rows say so (loader_shared) with what the loader took (loader_cpu_ms); to measure that budget cleanly, run on a host with at least 3 CPUs (\`engines:\`); a \`cpuset\` would not help: it caps the budget at the CPUs it names; to answer for the server with the load generator beside it, ask for that: \`loader: {cpuset: none}\``,
  ]);
});

test('an open loop with settings to advise on and no recommend.metric is warned: its requests_per_sec is its rate', () => {
  const open = (extra) =>
    warningsOf(`experiments:
  o:
    matrix: {workload: http, cpus: 1, uv_threadpool_size: [1, 4]}
    params:
      http: {load: open, open: {rate: 100}}
${extra}`);
  expect(open('')).toEqual([
    expect.stringMatching(
      /^experiments\.yml:2:3: experiments\.o\.recommend: warning: the advice of an open loop would be on requests_per_sec/,
    ),
  ]);
  expect(open('    recommend: {metric: latency_p99_ms}\n')).toEqual([]);
  expect(open('    slo: {p99_ms: 50}\n')).toEqual([]);
});
