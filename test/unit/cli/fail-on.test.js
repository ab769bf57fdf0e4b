// --fail-on refuted|inconclusive: the claims as a CI gate, with the statuses `claims` uses (1 refuted, 3
// inconclusive). On `claims` over the real default run's folder, and on a run's outcome driven through the whole
// pipeline (plan → fake executor → rows → reports → verdicts) with the gate the run command applies.
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { EventEmitter } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { collectClaimsStatuses, gateClaims, gateRun, parseFailOn } from '../../../runner/commands/fail-on.js';
import { parseYaml, validateConfig } from '../../../runner/config/load-config.js';
import { planExperiments } from '../../../runner/plan/plan-runs.js';
import { prepareJobs, runExperiments } from '../../../runner/run/run-experiments.js';
import { createFakeExecutor, fakeResult } from '../../../runner/backend/fake.js';
import { createLane } from '../../../runner/backend/contract.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const FIXTURE = join(ROOT, 'test/fixtures/results/pool-vs-cores');

test('the gate: refuted fails on a refuted claim only, inconclusive on both; a typo is a usage error', () => {
  expect([0, 1, 3].map((status) => gateClaims(status, 'refuted'))).toEqual([0, 1, 0]);
  expect([0, 1, 3].map((status) => gateClaims(status, 'inconclusive'))).toEqual([0, 1, 3]);
  expect(() => parseFailOn('refute', 'usage')).toThrow(
    /--fail-on takes refuted or inconclusive, found "refute" \(did you mean refuted\?\)/,
  );
});

describe('claims DIR --fail-on', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fail-on-'));
  cpSync(FIXTURE, dir, { recursive: true });
  // Measured in that folder: argon2 at pool 4 is −49% from cpus 1 to 2 (holds below 0.7); pbkdf2 at cpus 2 from pool 4
  // to 8 is −3.1% [−21%, +19%] (inconclusive against ±5%).
  const config = join(dir, 'undecided.yml');
  writeFileSync(
    config,
    `experiments:\n  pool-vs-cores:\n    matrix: {workload: [pbkdf2, argon2], cpus: [1, 2], uv_threadpool_size: [1, 2, 4, 8]}\n    claims:
      - {says: "2 CPUs cut argon2 time", compare: {cpus: [1, 2]}, where: {workload: argon2, uv_threadpool_size: 4}, expect: {below: 0.7}}
      - {says: "pool 8 is no faster than 4", compare: {uv_threadpool_size: [4, 8]}, where: {workload: pbkdf2, cpus: 2}, expect: {same: 0.05}}\n`,
  );
  const claims = (args) =>
    execa('node', ['runner/cli.js', 'claims', dir, '--config', config, ...args], { cwd: ROOT, reject: false });

  test('inconclusive, none refuted: exit 3 by default and with --fail-on inconclusive, 0 with --fail-on refuted', async () => {
    expect((await claims([])).exitCode).toBe(3);
    expect((await claims(['--fail-on', 'inconclusive'])).exitCode).toBe(3);
    const passed = await claims(['--fail-on', 'refuted', '--json']);
    expect([passed.exitCode, JSON.parse(passed.stdout).exit_code, JSON.parse(passed.stdout).claims_verdict]).toEqual([
      0,
      0,
      'inconclusive',
    ]);
  });
});

describe("run --fail-on: the gate over a matrix's folders", () => {
  // pool 4 takes half the time of pool 1, within a few per cent from run to run.
  const wall = (run) => (run.values.uv_threadpool_size === 1 ? 200 : 100) * [1, 1.02, 0.99, 1.01][run.repetition];
  const CLAIMS = {
    holds: '{says: "pool 4 halves it", compare: {uv_threadpool_size: [1, 4]}, expect: {ratio: 0.5, within: 0.1}}',
    refuted: '{says: "pool 4 is no faster", compare: {uv_threadpool_size: [1, 4]}, expect: {above: 0.9}}',
  };

  async function runWith(claim) {
    const out = mkdtempSync(join(tmpdir(), 'fail-on-run-'));
    const text = `experiments:\n  gate:\n    repetitions: 3\n    matrix: {workload: [pbkdf2], uv_threadpool_size: [1, 4]}\n    claims:\n      - ${claim}\n`;
    const { raw, locate } = parseYaml(text, 'gate.yml');
    const plans = planExperiments(validateConfig(raw, { file: 'gate.yml', locate }), { defaultNodeMajor: 24, seed: 3 });
    const events = new EventEmitter();
    const statuses = collectClaimsStatuses(events);
    const executor = createFakeExecutor((run) => ({ result: fakeResult(run, { wall_ms: wall(run) }) }));
    const outcome = await runExperiments({
      jobs: prepareJobs({ plans, out, resultsRoot: out }),
      lanes: [createLane(executor)],
      events,
      context: { config: { file: 'gate.yml' }, engine: {}, images: new Map(), project: {}, argv: [], seed: 3 },
    });
    return { outcome, statuses };
  }

  test('every claim holds: the gate passes', async () => {
    const { outcome, statuses } = await runWith(CLAIMS.holds);
    expect(gateRun(outcome.experiments, statuses, 'refuted')).toEqual({ status: 0, words: null, unjudged: [] });
  });

  test('a refuted claim: exit 1 with --fail-on refuted and with --fail-on inconclusive', async () => {
    const { outcome, statuses } = await runWith(CLAIMS.refuted);
    expect(gateRun(outcome.experiments, statuses, 'refuted')).toMatchObject({ status: 1, words: 'a claim is refuted' });
    expect(gateRun(outcome.experiments, statuses, 'inconclusive').status).toBe(1);
  });

  test('a folder whose reports failed was not judged: the gate does not pass it', async () => {
    const { outcome } = await runWith(CLAIMS.holds);
    expect(gateRun(outcome.experiments, new Map(), 'refuted')).toMatchObject({
      status: 1,
      unjudged: [{ outDir: outcome.experiments[0].outDir }],
    });
  });
});
