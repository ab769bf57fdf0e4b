// The bin as npm installs it (npm link, npm install -g, npx): a symlink in a bin folder pointing at
// runner/cli.js, started from another folder. It must run (it once printed nothing and exited 0) and
// write to results/ of the folder it is started in.
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

const CLI = fileURLToPath(new URL('../../runner/cli.js', import.meta.url));
const TINY = fileURLToPath(new URL('../fixtures/integration/tiny.yml', import.meta.url));
const PROJECT = fileURLToPath(new URL('../../', import.meta.url));
const PACKAGE = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

describe('the bin through a symlink, from another folder', () => {
  let work;
  let bin;

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'lab-bin-'));
    mkdirSync(join(work, 'bin'));
    bin = join(work, 'bin', 'node-threads-lab');
    symlinkSync(CLI, bin);
    copyFileSync(TINY, join(work, 'experiments.yml'));
  });

  test('--version names the package and its version', async () => {
    const { stdout, exitCode } = await execa(bin, ['--version'], { cwd: work, reject: false });
    expect(exitCode).toBe(0);
    expect(stdout).toBe(`node-threads-lab ${PACKAGE.version}`);
  });

  test('plan reads experiments.yml of the current folder', async () => {
    const { stdout, exitCode } = await execa(bin, ['plan'], { cwd: work, reject: false });
    expect(exitCode).toBe(0);
    expect(stdout.trim().split('\n').at(-1)).toMatch(/^2 runs\b/);
  });

  test('a real matrix writes to results/ of the current folder', async () => {
    const result = await execa(bin, ['run'], { cwd: work, reject: false, all: true });
    expect(result.all).toMatch(/tiny: 2 ok, 0 not ok, of 2/);
    expect(result.exitCode).toBe(0);
    const [folder] = readdirSync(join(work, 'results'));
    expect(folder).toMatch(/^tiny-/);
    expect(
      readFileSync(join(work, 'results', folder, 'runs.csv'), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(3);
  });
});

// What hyperfine and autocannon do: `run > out` keeps the results (each experiment's count line, its Answers and
// Advice) in the file, and the progress stays on the terminal (stderr).
describe('results on stdout, progress on stderr', () => {
  let work;

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'lab-streams-'));
    writeFileSync(
      join(work, 'tiny.yml'),
      `${readFileSync(TINY, 'utf8').replace('matrix: {workload: [pbkdf2]}', 'matrix: {workload: [pbkdf2], uv_threadpool_size: [1, 2]}')}
    claims:
      - says: a pool of 2 is no slower than a pool of 1 at one task
        compare: {uv_threadpool_size: [1, 2]}
        expect: {below: 2}
    recommend: {}
`,
    );
  });

  test('run --config tiny.yml > out: the Answers and Advice in out, the progress on the terminal', async () => {
    const result = await execa('node', [CLI, 'run', '--config', 'tiny.yml'], { cwd: work, reject: false });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^tiny: 4 ok, 0 not ok, of 4 → .*results\/tiny-[^/]+\/runs\.csv$/m);
    expect(result.stdout).toMatch(/^Answers \(all in verdicts\.csv; /m);
    expect(result.stdout).toMatch(/^Advice \(all in advice\.csv\):\n {2}\S/m);
    expect(result.stdout).not.toMatch(/run \d\/4|reports:/);
    expect(result.stderr).toMatch(/^tiny: 4 runs → /m);
    expect(result.stderr).toMatch(/^run 4\/4 · ok/m);
    expect(result.stderr).not.toMatch(/Answers|Advice/);
  });

  test('--json: the results document on stdout; --quiet: no progress on stderr', async () => {
    const result = await execa('node', [CLI, 'run', '--config', 'tiny.yml', '--json', '--quiet'], {
      cwd: work,
      reject: false,
    });
    expect(result.exitCode).toBe(0);
    // Warnings may remain (another runner's containers on a shared engine); progress may not.
    expect(result.stderr).not.toMatch(/runs →|run \d\/4|\[\d\/4\]|reports:/);
    const [experiment] = JSON.parse(result.stdout).experiments;
    expect(experiment).toMatchObject({ name: 'tiny', summary: { ok: 4, total: 4 } });
    expect(experiment.results).toEqual(JSON.parse(readFileSync(join(experiment.dir, 'results.json'), 'utf8')));
  });
});

test("npm run matrix, started in a subfolder of the project, writes to the project's results/", async () => {
  const before = new Set(readdirSync(join(PROJECT, 'results')));
  const result = await execa('npm', ['run', '--silent', 'matrix', '--', '--config', TINY], {
    cwd: join(PROJECT, 'test'),
    reject: false,
    all: true,
  });
  const made = readdirSync(join(PROJECT, 'results')).filter((name) => !before.has(name));
  try {
    expect(result.exitCode).toBe(0);
    expect(made).toEqual([expect.stringMatching(/^tiny-/)]);
  } finally {
    for (const name of made) rmSync(join(PROJECT, 'results', name), { recursive: true, force: true });
  }
});
