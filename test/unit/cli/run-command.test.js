// `node-threads-lab run` as a person reads it, over the fake executor: the results (each experiment's count line,
// Answers, Advice) on stdout, the progress on stderr — `run > out` keeps the results — and --json, --quiet.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../runner/commands/run.js';
import { createFakeRun } from '../../support/fake-run.js';

const TWO_EXPERIMENTS = `experiments:
  pool:
    repetitions: 2
    search: grid
    matrix: {workload: pbkdf2, uv_threadpool_size: [1, 4]}
    params: {pbkdf2: {tasks: 2}}
    claims:
      - says: a pool of 4 is no slower
        compare: {uv_threadpool_size: [1, 4]}
        expect: {below: 1.1}
    recommend: {}
  quota:
    repetitions: 2
    matrix: {workload: pbkdf2, cpus: [1, 2]}
    params: {pbkdf2: {tasks: 2}}
`;

function collect() {
  const chunks = [];
  return { write: (chunk) => chunks.push(String(chunk)), isTTY: false, text: () => chunks.join('') };
}

async function runCommand(args, text = TWO_EXPERIMENTS) {
  const dir = mkdtempSync(join(tmpdir(), 'run-command-'));
  writeFileSync(join(dir, 'experiments.yml'), text);
  const stdout = collect();
  const stderr = collect();
  const status = await main(['--config', 'experiments.yml', '--out', 'out', '--seed', '3', ...args], {
    stdout,
    stderr,
    paths: { typed: dir, defaults: dir, npmScript: false },
    version: 'test',
    runMatrix: createFakeRun(),
  });
  return { status, stdout: stdout.text(), stderr: stderr.text(), dir };
}

test('the results go to stdout, the progress to stderr', async () => {
  const { status, stdout, stderr, dir } = await runCommand([]);
  expect(status).toBe(0);
  const lines = stdout.split('\n');
  expect(lines[0]).toBe(`pool: 4 ok, 0 not ok, of 4 → ${join(dir, 'out', 'pool', 'runs.csv')}`);
  expect(stdout).toMatch(
    /^Answers \(all in verdicts\.csv; `node-threads-lab claims .*\/out\/pool` to check again\):$/m,
  );
  expect(stdout).toMatch(/^Advice \(all in advice\.csv\):$/m);
  expect(stdout).toContain(`quota: 4 ok, 0 not ok, of 4 → ${join(dir, 'out', 'quota', 'runs.csv')}`);
  // Pool's answers and advice come before quota's count line: each experiment's results as it ends.
  expect(stdout.indexOf('Advice')).toBeLessThan(stdout.indexOf('quota: 4 ok'));
  expect(stdout).not.toMatch(/\[\d+\/\d+\]|run \d+\/\d+|reports:/);

  expect(stderr).toMatch(/^pool: 4 runs → /m);
  expect(stderr).toMatch(/^\[1\/4\] .* pool /m);
  expect(stderr).toMatch(/^run 4\/4 · ok · wall /m);
  expect(stderr).toMatch(/^reports: summary\.csv, /m);
  expect(stderr).not.toMatch(/Answers|Advice|ok, 0 not ok/);
});

test('--quiet: the same results, no progress', async () => {
  const loud = await runCommand([]);
  const { status, stdout, stderr } = await runCommand(['--quiet']);
  expect(status).toBe(0);
  expect(stderr).toBe('');
  expect(stdout.replaceAll(/run-command-\w+/g, 'DIR')).toBe(loud.stdout.replaceAll(/run-command-\w+/g, 'DIR'));
});

test('--json: one document on stdout, each experiment with what its results.json holds', async () => {
  const { status, stdout, stderr, dir } = await runCommand(['--json']);
  expect(status).toBe(0);
  const document = JSON.parse(stdout);
  expect(Object.keys(document)).toEqual(['format', 'tool', 'seed', 'stopped_by', 'experiments']);
  expect(document).toMatchObject({ format: 1, tool: 'node-threads-lab', seed: 3, stopped_by: null });
  expect(document.experiments.map(({ name, dir: folder }) => [name, folder])).toEqual([
    ['pool', join(dir, 'out', 'pool')],
    ['quota', join(dir, 'out', 'quota')],
  ]);
  for (const experiment of document.experiments) {
    expect(experiment.results).toEqual(JSON.parse(readFileSync(join(experiment.dir, 'results.json'), 'utf8')));
    expect(experiment.summary).toEqual(JSON.parse(readFileSync(join(experiment.dir, 'run.json'), 'utf8')).summary);
  }
  // The progress, and where each folder went, stay on stderr.
  expect(stderr).toMatch(/^run 4\/4 · ok/m);
  expect(stderr).toContain(`pool: 4 ok, 0 not ok, of 4 → ${join(dir, 'out', 'pool', 'runs.csv')}`);
});

test('--json --quiet: only the document', async () => {
  const { stdout, stderr } = await runCommand(['--json', '--quiet']);
  expect(stderr).toBe('');
  expect(JSON.parse(stdout).experiments).toHaveLength(2);
});

test('failed runs: the results still on stdout, exit 1', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'run-command-'));
  writeFileSync(join(dir, 'experiments.yml'), TWO_EXPERIMENTS);
  const stdout = collect();
  const stderr = collect();
  const status = await main(['--config', 'experiments.yml', '--out', 'out', '--only', 'quota', '--json'], {
    stdout,
    stderr,
    paths: { typed: dir, defaults: dir, npmScript: false },
    version: 'test',
    runMatrix: createFakeRun((run) => (run.values.cpus === 2 ? { exitCode: 1, stdout: '', stderr: 'boom' } : {})),
  });
  expect(status).toBe(1);
  expect(JSON.parse(stdout.text()).experiments[0].summary).toMatchObject({ ok: 2, failed: 2 });
  expect(stderr.text()).toMatch(/· failed · /);
});
