// `npm run claims -- DIR` on the real default run (test/fixtures/results/pool-vs-cores), with claims written
// after the run and passed with --config: the exit status says whether every claim holds.
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const FIXTURE = join(ROOT, 'test/fixtures/results/pool-vs-cores');

// Measured in that folder: argon2 at pool 4 takes −49% [−53%, −46%] from cpus 1 to 2; pbkdf2 at cpus 2 from
// pool 4 to 8: −3.1% [−21%, +19%], far too wide to say "the same within 5%".
const HOLDS =
  '{says: "2 CPUs cut argon2 time by more than 30%", compare: {cpus: [1, 2]}, where: {workload: argon2, uv_threadpool_size: 4}, expect: {below: 0.7}}';
const REFUTED =
  '{says: "2 CPUs barely help argon2", compare: {cpus: [1, 2]}, where: {workload: argon2, uv_threadpool_size: 4}, expect: {above: 0.9}}';
const UNDECIDED =
  '{says: "pool 8 is no faster than 4", compare: {uv_threadpool_size: [4, 8]}, where: {workload: pbkdf2, cpus: 2}, expect: {same: 0.05}}';

function writeConfig(dir, claims) {
  const file = join(dir, `claims-${claims.length}-${Math.random().toString(36).slice(2)}.yml`);
  writeFileSync(
    file,
    `experiments:\n  pool-vs-cores:\n    matrix: {workload: [pbkdf2, argon2], cpus: [1, 2], uv_threadpool_size: [1, 2, 4, 8]}\n    claims:\n${claims.map((claim) => `      - ${claim}\n`).join('')}`,
  );
  return file;
}

// From an empty folder: without DIR, claims takes the newest folder under ./results, and the checkout's own results/
// (a matrix run before the tests) must not count.
const NOWHERE = mkdtempSync(join(tmpdir(), 'claims-cwd-'));
function runClaims(args) {
  return execa('node', [join(ROOT, 'runner/cli.js'), 'claims', ...args], { cwd: NOWHERE, reject: false });
}

describe('npm run claims -- DIR', () => {
  const dir = mkdtempSync(join(tmpdir(), 'claims-'));
  cpSync(FIXTURE, dir, { recursive: true });

  test.each([
    ['every claim holds', 0, [HOLDS], /^HOLDS: claimed: "2 CPUs cut argon2 time by more than 30%"/m],
    ['one is refuted', 1, [HOLDS, REFUTED, UNDECIDED], /^REFUTED: claimed: "2 CPUs barely help argon2"/m],
    [
      'some are inconclusive, none refuted',
      3,
      [HOLDS, UNDECIDED],
      /^INCONCLUSIVE: claimed: "pool 8 is no faster than 4".*about \d+ runs per cell would probably settle it/m,
    ],
  ])('%s → exit %s', async (name, code, claims, line) => {
    const { stdout, exitCode } = await runClaims([dir, '--config', writeConfig(dir, claims)]);
    expect(stdout).toMatch(line);
    expect(stdout).toMatch(/moves it most/);
    expect(exitCode).toBe(code);
  });

  test('a folder whose run.json has no claims: every automatic step with --steps, exit 0', async () => {
    const { stdout, exitCode } = await runClaims([dir, '--steps']);
    expect(stdout).toContain('No claims: run.json has no `claims:`.');
    expect(stdout).toContain(
      '  uv_threadpool_size 1 → 2 at workload=argon2 cpus=2: wall_ms −19% [−23%, −14%] (n 3/3), faster',
    );
    expect(exitCode).toBe(0);
  });

  test('bad usage, a folder without runs.csv or a claim naming a value the matrix lacks: exit 2', async () => {
    expect((await runClaims([])).exitCode).toBe(2);
    expect((await runClaims([tmpdir()])).exitCode).toBe(2);
    const bad = writeConfig(dir, ['{says: x, compare: {uv_threadpool_size: [1, 16]}, expect: {below: 1}}']);
    const { stderr, exitCode } = await runClaims([dir, '--config', bad]);
    expect(stderr).toMatch(/:5:\d+: .*16 is not a value of `uv_threadpool_size`/);
    expect(exitCode).toBe(2);
  });

  test('a claim on a value the config has but the folder never ran: exit 2 with the values the folder has', async () => {
    const file = join(dir, 'wider.yml');
    writeFileSync(
      file,
      `experiments:\n  pool-vs-cores:\n    matrix: {workload: [pbkdf2, argon2], cpus: [1, 2], uv_threadpool_size: [1, 2, 4, 8, 16]}\n    claims:\n      - {says: "16 threads beat 4", compare: {uv_threadpool_size: [4, 16]}, where: {workload: pbkdf2, cpus: 2}, expect: {below: 0.9}}\n`,
    );
    const { stdout, stderr, exitCode } = await runClaims([dir, '--config', file]);
    expect(stderr).toContain(
      'claim 1 ("16 threads beat 4"): the folder has no cell with uv_threadpool_size=16 at workload=pbkdf2 cpus=2; there it has 1, 2, 4, 8',
    );
    expect(stdout).not.toContain('INCONCLUSIVE');
    expect(exitCode).toBe(2);
  });
});
