// runExperiments (the API under cli.js) with the fake executor: the loop over experiments, run.json,
// reports, abort and the resume merge, in milliseconds. And the CLI's --plan and config errors load no
// Docker code at all (an import hook makes any dockerode import throw).
import { execa } from 'execa';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventEmitter } from 'node:events';
import { fileURLToPath } from 'node:url';
import { planExperiments } from '../../../runner/plan/plan-runs.js';
import { checkResumable, readResumeState } from '../../../runner/results/resume.js';
import { readResults } from '../../../runner/results/read-results.js';
import { prepareJobs, runExperiments } from '../../../runner/run/run-experiments.js';
import { createFakeExecutor, FAKE_CONTEXT as CONTEXT } from '../../../runner/backend/fake.js';
import { createLane } from '../../../runner/backend/contract.js';
import { buildClaimsRecord, checkClaimFixed, hashClaim } from '../../../runner/verdicts/claim-hash.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function configOf(...names) {
  return {
    file: 'x.yml',
    experiments: names.map((name) => ({
      name,
      repetitions: 2,
      timeout: 10,
      memory_bytes: 2 ** 30,
      env: {},
      include: [],
      exclude: [],
      matrix: { workload: ['pbkdf2'], cpus: [1, 2] },
      params: { pbkdf2: { tasks: 2 } },
    })),
  };
}

test('two experiments: each gets its folder, run.json with the summary, runs.csv and the reports', async () => {
  const out = mkdtempSync(join(tmpdir(), 'api-'));
  const plans = planExperiments(configOf('a', 'b'), { defaultNodeMajor: 24, seed: 7 });
  const jobs = prepareJobs({ plans, out, resultsRoot: out });
  const events = new EventEmitter();
  const seen = [];
  for (const name of ['experiment-start', 'run-end', 'reports', 'experiment-end'])
    events.on(name, () => seen.push(name));
  const outcome = await runExperiments({ jobs, lanes: [createLane(createFakeExecutor())], context: CONTEXT, events });
  expect(outcome).toMatchObject({ stoppedBy: null, anyFailed: false });
  expect(outcome.experiments.map(({ outDir }) => outDir)).toEqual([join(out, 'a'), join(out, 'b')]);
  for (const { outDir } of outcome.experiments) {
    const info = JSON.parse(readFileSync(join(outDir, 'run.json'), 'utf8'));
    expect(info).toMatchObject({ seed: 7, planned_runs: 4, summary: { total: 4, ok: 4, failed: 0 } });
    expect(info.finished_at).toEqual(expect.any(String));
    // The claims the runs were made for, fixed when they started (this config has none: an empty record).
    const record = JSON.parse(readFileSync(join(outDir, 'claims.json'), 'utf8'));
    expect(record).toMatchObject({ recorded: 'at the start of the runs', at: info.started_at, claims: [] });
    expect(readResults(outDir).runs).toHaveLength(4);
    for (const file of ['summary.csv', 'report.md', 'report.html']) expect(existsSync(join(outDir, file))).toBe(true);
  }
  expect(seen.filter((name) => name === 'run-end')).toHaveLength(8);
  expect(seen.filter((name) => name !== 'run-end')).toEqual([
    'experiment-start',
    'reports',
    'experiment-end',
    'experiment-start',
    'reports',
    'experiment-end',
  ]);
});

// Runs the plan into `out` with the fake executor and aborts once `count` runs have been handed out.
function runAbortingAfter(plan, out, count) {
  const controller = new AbortController();
  const executor = createFakeExecutor(() => {
    if (executor.executed.length === count) controller.abort();
    return {};
  });
  return runExperiments({
    jobs: prepareJobs({ plans: [plan], out, resultsRoot: out }),
    lanes: [createLane(executor)],
    context: CONTEXT,
    signal: controller.signal,
  });
}

test("claims.json records each claim's hash when the runs start, as the verdicts will read it", async () => {
  const out = mkdtempSync(join(tmpdir(), 'api-'));
  const config = configOf('a');
  const claim = { says: 'cpus 2 halves it', metric: null, compare: { cpus: [1, 2] }, where: {}, expect: { below: 1 } };
  config.experiments[0].claims = [claim];
  const plans = planExperiments(config, { defaultNodeMajor: 24, seed: 7 });
  const {
    experiments: [{ outDir }],
  } = await runExperiments({
    jobs: prepareJobs({ plans, out, resultsRoot: out }),
    lanes: [createLane(createFakeExecutor())],
    context: CONTEXT,
    events: new EventEmitter(),
  });
  const info = JSON.parse(readFileSync(join(outDir, 'run.json'), 'utf8'));
  const record = JSON.parse(readFileSync(join(outDir, 'claims.json'), 'utf8'));
  expect(record).toEqual(buildClaimsRecord([claim], info.started_at));
  expect(record.claims).toEqual([{ says: 'cpus 2 halves it', hash: hashClaim(claim) }]);
  expect(checkClaimFixed(claim, record)).toBe('fixed');
  expect(checkClaimFixed({ ...claim, expect: { below: 0.6 } }, record)).toBe('changed');
});

test('an abort stops after the run in progress; resume runs only the rest and notes itself in run.json', async () => {
  const out = mkdtempSync(join(tmpdir(), 'api-'));
  const [plan] = planExperiments(configOf('a'), { defaultNodeMajor: 24, seed: 7 });
  const stopped = await runAbortingAfter(plan, out, 2);
  expect(stopped).toMatchObject({ stoppedBy: 'abort', experiments: [{ summary: { done: 2, total: 4 } }] });
  const record = readFileSync(join(out, 'claims.json'), 'utf8');

  const resumed = readResumeState(out);
  expect(resumed.done.size).toBe(2);
  const second = createFakeExecutor();
  const outcome = await runExperiments({
    jobs: prepareJobs({ plans: [plan], resumed, resultsRoot: out }),
    lanes: [createLane(second)],
    context: { ...CONTEXT, argv: ['--resume', out] },
    events: new EventEmitter(),
  });
  expect(outcome.stoppedBy).toBeNull();
  expect(second.executed.map((run) => run.runKey)).toEqual(plan.runs.slice(2).map((run) => run.runKey));
  const info = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
  expect(info.resumed).toEqual([expect.objectContaining({ argv: ['--resume', out] })]);
  // The claims stay those of the first start: a resume does not record them again.
  expect(readFileSync(join(out, 'claims.json'), 'utf8')).toBe(record);
  expect(
    readResults(out)
      .runs.map((row) => `${row.cell}.${row.repetition}`)
      .sort(),
  ).toEqual(plan.runs.map((run) => run.runKey).sort());
});

describe('the CLI loads no Docker code', () => {
  const cli = (...args) =>
    execa('node', ['--import', './test/support/forbid-dockerode.js', 'runner/cli.js', ...args], {
      cwd: ROOT,
      reject: false,
      env: { DOCKER_HOST: 'unix:///nonexistent.sock' },
    });

  test('for --plan', async () => {
    const result = await cli('run', '--plan', '--seed', '1', '--config', 'experiments.yml');
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^pool-vs-cores: 12 cells × 2 runs = 24 runs/m);
    expect(result.stdout).toMatch(
      /^24 runs \(up to 96 with adaptive rounds.*, and up to 24 re-runs of disturbed runs/m,
    );
  });

  test('for plan --json', async () => {
    const result = await cli('plan', '--json', '--seed', '1', '--config', 'experiments.yml');
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout).count).toBe(24);
  });

  test('for a config error', async () => {
    const result = await cli('run', '--config', 'test/fixtures/bad-configs/06-unknown-axis.yml');
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/unknown axis `threads`/);
    expect(result.stderr).not.toMatch(/Docker code loaded/);
  });

  test('the hook does catch a Docker import', async () => {
    const result = await execa(
      'node',
      [
        '--import',
        './test/support/forbid-dockerode.js',
        '-e',
        "await import('./runner/docker/engines/client.js')",
        '--input-type=module',
      ],
      { cwd: ROOT, reject: false },
    );
    expect(result.stderr).toMatch(/Docker code loaded/);
  });
});

describe('resume across versions', () => {
  // A folder written before today's columns existed: the first run's row without `engine` and `slot_cpuset`.
  async function oldFolder() {
    const out = mkdtempSync(join(tmpdir(), 'api-old-'));
    const [plan] = planExperiments(configOf('a'), { defaultNodeMajor: 24, seed: 7 });
    await runAbortingAfter(plan, out, 1);
    const { columns } = readResults(out);
    const keep = columns.filter((column) => !['engine', 'slot_cpuset'].includes(column));
    const [header, ...lines] = readFileSync(join(out, 'runs.csv'), 'utf8')
      .trim()
      .split('\r\n')
      .map((line) => line.split(','));
    const at = keep.map((column) => header.indexOf(column));
    writeFileSync(
      join(out, 'runs.csv'),
      [keep, ...lines.map((line) => at.map((index) => line[index]))].map((line) => `${line.join(',')}\r\n`).join(''),
    );
    return { out, plan, before: readResults(out).runs[0], columns };
  }

  test('a folder that lacks columns added since gets them empty and the resume appends rows that line up', async () => {
    const { out, plan, before, columns } = await oldFolder();
    const resumed = readResumeState(out);
    expect(() => checkResumable(plan, resumed, columns)).not.toThrow();
    await runExperiments({
      jobs: prepareJobs({ plans: [plan], resumed, resultsRoot: out }),
      lanes: [createLane(createFakeExecutor())],
      context: CONTEXT,
      events: new EventEmitter(),
    });
    const after = readResults(out);
    expect(after.columns).toEqual(columns);
    expect(after.runs).toHaveLength(plan.runs.length);
    expect(after.runs[0]).toEqual(before);
    expect(readFileSync(join(out, 'runs.csv'), 'utf8').split('\r\n')[0]).toBe(columns.join(','));
    expect(after.runs.map((row) => [row.experiment, row.status, Number.isFinite(row.wall_ms)])).toEqual(
      plan.runs.map(() => ['a', 'ok', true]),
    );
  });

  test('a folder with a column this version no longer writes is refused before anything runs', async () => {
    const { out, plan, columns } = await oldFolder();
    const text = readFileSync(join(out, 'runs.csv'), 'utf8');
    writeFileSync(join(out, 'runs.csv'), text.replace(/^([^\r]*)\r\n([^\r]*)\r\n/, '$1,gone_metric\r\n$2,1\r\n'));
    expect(() => checkResumable(plan, readResumeState(out), columns)).toThrow(
      /runs\.csv has columns this version no longer writes: gone_metric/,
    );
  });
});
