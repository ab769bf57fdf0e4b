// `node-threads-lab plan` as a person runs it: a table per experiment, the total and an estimate; warnings after the
// table; --verbose's per-run list, the same for the same seed; an estimate from an earlier folder of the experiment
// when results/ has one, else from the figures shipped with the package; a reader that closes the pipe (`| head -1`)
// ends it quietly, exit 0. Every test names its results root (--results, an empty folder where none is meant), so
// no test reads the checkout's results/ (issue 31).
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { parseYaml, validateConfig } from '../../../runner/config/load-config.js';
import { readBenchFigures } from '../../../runner/estimate/estimate.js';
import { planExperiments } from '../../../runner/plan/plan-runs.js';
import { prepareJobs, runExperiments } from '../../../runner/run/run-experiments.js';
import { createFakeExecutor } from '../../../runner/backend/fake.js';
import { createLane } from '../../../runner/backend/contract.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(ROOT, 'runner/cli.js');
const CLEAN_ENV = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm_|INIT_CWD$)/i.test(name)));
const cli = (args, options = {}) =>
  execa('node', [CLI, ...args], { cwd: ROOT, reject: false, env: CLEAN_ENV, extendEnv: false, ...options });
const NO_RESULTS = mkdtempSync(join(tmpdir(), 'plan-no-results-'));

test("the default file: a cell table, the claims' metrics, the advice's, an estimate and the total, exit 0", async () => {
  const { stdout, exitCode } = await cli([
    'plan',
    '--seed',
    '5',
    '--config',
    'experiments.yml',
    '--results',
    NO_RESULTS,
  ]);
  expect(exitCode).toBe(0);
  const lines = stdout.split('\n');
  expect(lines[0]).toBe(
    'pool-vs-cores: 12 cells × 2 runs = 24 runs; adaptive rounds may add up to 72 (6 more for each of 12 cells: the cells of a claim, until it is decided; the settings of each budget, until its advice is settled or they are dropped)',
  );
  expect(lines[1]).toMatch(/^ {2}workload +cpus +uv_threadpool_size +runs +up to +each run$/);
  expect(lines.filter((line) => /^ {2}(pbkdf2|argon2) /.test(line))).toHaveLength(12);
  expect(stdout).toMatch(
    /^ {2}claim 3: uv_threadpool_size 4 \/ 1, ratio above 0\.9, on wall_ms \(lower is better\); 2 pairs of cells$/m,
  );
  expect(stdout).toMatch(
    /^ {2}advice: per cpus and workload, the cheapest setting \(fewest threads and processes\) shown within 5% of the best tried \(95%\), on wall_ms \(lower is better\)$/m,
  );
  // No earlier folder: the figures shipped with the package, which ran this very file.
  expect(stdout).toMatch(
    /^ {2}time: about \d+ (?:s|min): every cell as measured in the figures shipped with node-threads-lab \(docs\/settling\/race-\d[^;]*; measured on 2 CPUs of .+\)$/m,
  );
  expect(lines.at(-1)).toMatch(
    /^24 runs \(up to 96 with adaptive rounds, \d+ min\), about \d+ (?:s|min); likely \d+ runs, about \d+ (?:s|min), as the races of docs\/settling\/race-1, race-2 and race-3 went, and up to 24 re-runs of disturbed runs \(`max_reruns` a cell\), and up to 2 min waiting for a quiet host if runs keep being disturbed \(`busy_wait`\); seed 5 \(--seed 5 gives this order again; --verbose lists every run\)$/,
  );
});

test('warnings come after the table', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'plan-warn-'));
  writeFileSync(
    join(dir, 'warned.yml'),
    'experiments:\n  q:\n    matrix: {workload: [pbkdf2], cpus: [2], cpuset: ["0"]}\n    params:\n      argon2: {tasks: 2}\n',
  );
  // One stream, so the order is the order they were written in.
  const { stdout, exitCode } = await execa('sh', ['-c', `node ${CLI} plan --config warned.yml 2>&1`], {
    cwd: dir,
    reject: false,
    env: CLEAN_ENV,
    extendEnv: false,
  });
  expect(exitCode).toBe(0);
  const total = stdout.indexOf('\n3 runs');
  expect(total).toBeGreaterThan(0);
  expect(stdout.indexOf('warning: cells with cpus 2 and cpuset "0"')).toBeGreaterThan(total);
  expect(stdout.indexOf('warning: `params.argon2` is ignored: no cell runs the argon2 workload')).toBeGreaterThan(
    total,
  );
});

test('--verbose lists every run, in the same order for the same seed', async () => {
  const once = await cli(['plan', '--verbose', '--seed', '11', '--results', NO_RESULTS]);
  const again = await cli(['plan', '--verbose', '--seed', '11', '--results', NO_RESULTS]);
  const runs = (stdout) => stdout.split('\n').filter((line) => /^pool-vs-cores cell [0-9a-f]{10} rep \d: /.test(line));
  expect(runs(once.stdout)).toHaveLength(24);
  expect(runs(again.stdout)).toEqual(runs(once.stdout));
  expect(runs((await cli(['plan', '--verbose', '--seed', '12', '--results', NO_RESULTS])).stdout)).not.toEqual(
    runs(once.stdout),
  );
});

test('a closed pipe (`plan | head -1`) ends quietly, exit 0', async () => {
  // 1,600 runs, one line each: more than a pipe holds, so the writer is still writing when the reader leaves.
  const dir = mkdtempSync(join(tmpdir(), 'plan-pipe-'));
  writeFileSync(
    join(dir, 'many.yml'),
    `experiments:\n  many:\n    repetitions: 40\n    matrix: {workload: [pbkdf2], uv_threadpool_size: [${Array.from({ length: 40 }, (_, i) => i + 1).join(', ')}]}\n`,
  );
  const child = spawn(
    'node',
    [CLI, 'plan', '--verbose', '--seed', '1', '--config', join(dir, 'many.yml'), '--results', NO_RESULTS],
    {
      cwd: ROOT,
      env: CLEAN_ENV,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  // Read one chunk, then close our end as `head -1` does.
  await new Promise((resolve) => child.stdout.once('data', resolve));
  child.stdout.destroy();
  const code = await new Promise((resolve) => child.on('close', resolve));
  expect(stderr).toBe('');
  expect(code).toBe(0);
});

test('with an earlier folder of the experiment under results/, its run times; --json carries the same', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'plan-previous-'));
  const text =
    'experiments:\n  small:\n    repetitions: 2\n    search: grid\n    matrix: {workload: [pbkdf2], uv_threadpool_size: [1, 4]}\n';
  writeFileSync(join(dir, 'experiments.yml'), text);
  const { raw, locate } = parseYaml(text, join(dir, 'experiments.yml'));
  const plans = planExperiments(validateConfig(raw, { file: join(dir, 'experiments.yml'), locate }), {
    defaultNodeMajor: 24,
    seed: 1,
  });
  // The fake executor's runs take 1 s each, start to finish.
  await runExperiments({
    jobs: prepareJobs({ plans, resultsRoot: join(dir, 'results'), startedAt: new Date('2026-11-20T10:00:00Z') }),
    lanes: [createLane(createFakeExecutor())],
    context: { config: { file: 'x' }, engine: {}, images: new Map(), project: {}, argv: [], seed: 1 },
  });
  const { stdout } = await cli(['plan', '--seed', '1'], { cwd: dir });
  expect(stdout).toMatch(/^ {2}uv_threadpool_size +runs +up to +each run\n {2} +1 +2 +1\.0 s\n {2} +4 +2 +1\.0 s$/m);
  expect(stdout).toMatch(
    /^ {2}time: about \d+ s: every cell as measured in .*results\/small-20261120T100000Z \(the median time of a run there\)$/m,
  );
  // Told where the folders are (--results), from anywhere.
  const told = await cli([
    'plan',
    '--seed',
    '1',
    '--config',
    join(dir, 'experiments.yml'),
    '--results',
    join(dir, 'results'),
  ]);
  expect(told.stdout).toContain(`every cell as measured in ${join(dir, 'results/small-20261120T100000Z')}`);
  const json = JSON.parse((await cli(['plan', '--seed', '1', '--json'], { cwd: dir })).stdout);
  // 4 runs of 1 s, and the command's start-up once (the benchmark's figure).
  expect(json.experiments[0].estimate).toMatchObject({
    planned_ms: Math.round(4000 + readBenchFigures().startup_ms),
    measured_cells: 2,
    model_cells: 0,
    lower_bound: false,
    sources: [
      {
        folder: join(dir, 'results/small-20261120T100000Z'),
        measured_cells: 2,
        model_cells: 0,
        shipped: false,
        host: null,
      },
    ],
  });
  expect(
    json.experiments[0].table.map((row) => [row.values.uv_threadpool_size, row.runs, row.run_ms, row.run_ms_from]),
  ).toEqual([
    [1, 2, 1000, 'measured'],
    [4, 2, 1000, 'measured'],
  ]);
});

test('a misspelled export: exit 2 at file:line:column, before any engine', async () => {
  const { stderr, exitCode } = await cli(
    ['plan', '--config', 'test/fixtures/own-code/failures.yml', '--only', 'missing-export'],
    { env: { ...CLEAN_ENV, DOCKER_HOST: 'unix:///nonexistent.sock' } },
  );
  expect(exitCode).toBe(2);
  expect(stderr).toMatch(
    /failures\.yml:8:50: experiments\.missing-export\.params\.script\.export: bench\/functions\.js has no export `hashPasword`; its exports: brokenHandler, explode, fine, notAFunction/,
  );
});
