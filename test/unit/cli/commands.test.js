// The one command and its subcommands, as a person runs them: help (alone, --help, help COMMAND), did-you-mean and
// every option mistake in the project's words, --json that parses, the npm script aliases with paths relative to
// where they were typed, and which folder a path is relative to.
import { cpSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { readCallerPaths } from '../../../runner/commands/caller-paths.js';
import { EXIT_STATUSES, SUBCOMMANDS } from '../../../runner/commands/table.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(ROOT, 'runner/cli.js');
const FIXTURE = join(ROOT, 'test/fixtures/results/pool-vs-cores');
const FIXTURE_B = join(ROOT, 'test/fixtures/results/pool-vs-cores-b');
// Children of `npm test` inherit npm's variables; a person's shell has none.
const CLEAN_ENV = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm_|INIT_CWD$)/i.test(name)));
const cli = (args, options = {}) =>
  execa('node', [CLI, ...args], { cwd: ROOT, reject: false, env: CLEAN_ENV, extendEnv: false, ...options });

describe('help', () => {
  test.each([[[]], [['--help']], [['help']]])(
    '%j lists every subcommand and the exit statuses, exit 0',
    async (args) => {
      const { stdout, stderr, exitCode } = await cli(args);
      expect([exitCode, stderr]).toEqual([0, '']);
      expect(stdout).toMatch(/^Usage: node-threads-lab COMMAND \[options\]\n/);
      for (const { name, summary } of SUBCOMMANDS)
        expect(stdout).toMatch(
          new RegExp(`^  ${name} +${summary.slice(0, 20).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm'),
        );
      for (const [status] of EXIT_STATUSES) expect(stdout).toMatch(new RegExp(`^  ${status} `, 'm'));
    },
  );

  test.each(SUBCOMMANDS.map(({ name }) => name))('%s --help: its own usage, exit 0', async (name) => {
    const { stdout, exitCode } = await cli([name, '--help']);
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(new RegExp(`^Usage: node-threads-lab ${name}`));
  });

  test.each(SUBCOMMANDS.map(({ name }) => name))('help %s prints what %s --help prints', async (name) => {
    const [asked, given] = await Promise.all([cli(['help', name]), cli([name, '--help'])]);
    expect([asked.exitCode, asked.stdout]).toEqual([0, given.stdout]);
  });

  test('--version and -v print the version, exit 0', async () => {
    for (const flag of ['--version', '-v']) expect((await cli([flag])).stdout).toMatch(/^node-threads-lab \d+\.\d+/);
  });
});

describe('mistakes get a "did you mean", exit 2', () => {
  test.each([
    [['reprot', 'x'], "Unknown command 'reprot' (did you mean `node-threads-lab report`?)"],
    [['matrix'], "Unknown command 'matrix' (did you mean `node-threads-lab run`?)"],
    [['--dry-run'], "No command before '--dry-run' (did you mean `node-threads-lab plan`?)"],
    [['--config', 'x.yml'], "No command before '--config' (did you mean `node-threads-lab run --config x.yml`?)"],
    [['help', 'plna'], "Unknown command 'plna' (did you mean `node-threads-lab plan`?)"],
    [['run', '--onyl', 'x'], "Unknown option '--onyl' (did you mean --only?)"],
    [['plan', '--dry-run'], "Unknown option '--dry-run': plan never starts a container anyway"],
    [['compare', '--treshold', '5%', 'a', 'b'], "Unknown option '--treshold' (did you mean --threshold?)"],
    [['report', '--jsn'], "Unknown option '--jsn' (did you mean --json?)"],
  ])('%j', async (args, message) => {
    const { stderr, exitCode } = await cli(args);
    expect(stderr).toContain(message);
    expect(exitCode).toBe(2);
  });

  // Node's parser says these to a program's author, with an unbalanced quote; the person gets what to write.
  test.each([
    [['plan', '--only'], '--only needs a value: write --only NAME'],
    [['plan', '--only', '--json'], '--only needs a value, and the word after it is another option: write --only NAME'],
    [['plan', '--json=yes'], '--json takes no value: write --json alone'],
    [['run', '--quiet=1'], '--quiet takes no value: write --quiet alone'],
    [['plan', 'extra'], "Unexpected argument 'extra': plan takes options only (they start with --)"],
    [['compare', 'a', 'b', '--threshold'], '--threshold needs a value: write --threshold PCT'],
  ])('%j', async (args, message) => {
    const { stderr, exitCode } = await cli(args);
    expect(stderr.split('\n')[0]).toBe(message);
    expect(stderr).not.toMatch(/To specify|argument missing|does not take an argument/);
    expect(exitCode).toBe(2);
  });
});

describe('a typo in experiments.yml: exit 2, the place in the file, an example; never a stack trace', () => {
  test.each([
    ['search: racing', '5:13', 'experiments.a.search', 'write e.g. `search: grid`'],
    ['search: [race]', '5:13', 'experiments.a.search', 'write e.g. `search: grid`'],
    ['race: 5', '5:11', 'experiments.a.race', 'write e.g. `race: {from_round: 3}`'],
    ['race: {from_round: two}', '5:24', 'experiments.a.race.from_round', 'write e.g. `from_round: 3`'],
  ])('%s', async (line, position, keyPath, hint) => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-typo-'));
    const file = join(dir, 'experiments.yml');
    writeFileSync(file, `experiments:\n  a:\n    matrix:\n      workload: pbkdf2\n    ${line}\n`);
    // `run` checks the file before it looks for an engine: no engine is reachable here, and none is needed.
    const { stderr, stdout, exitCode } = await cli(['run', '--config', file], {
      env: { ...CLEAN_ENV, DOCKER_HOST: 'unix:///nonexistent.sock' },
    });
    expect(exitCode).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(`${file}:${position}: ${keyPath}: expected `);
    expect(stderr).toContain(`\n  ${hint}`);
    expect(stderr).not.toMatch(/\bat \S+ \(|TypeError/);
  });
});

describe('report, claims and advise without DIR: the newest folder under results/, named on stderr', () => {
  // Two folders of the fixture as `run` names them; the later stamp is the newest whatever the order on disk.
  function resultsWithTwoFolders() {
    const dir = mkdtempSync(join(tmpdir(), 'cli-newest-'));
    for (const name of ['pool-vs-cores-20261120T100000Z', 'pool-vs-cores-20261121T090000Z'])
      cpSync(FIXTURE, join(dir, 'results', name), { recursive: true });
    // Not a results folder: no stamp, or no runs.csv.
    mkdirSync(join(dir, 'results', 'notes-20261122T000000Z'));
    cpSync(FIXTURE, join(dir, 'results', 'copy'), { recursive: true });
    return { dir, newest: join(dir, 'results', 'pool-vs-cores-20261121T090000Z') };
  }

  test.each([
    ['claims', ['--json'], (stdout, newest) => expect(JSON.parse(stdout).dir).toBe(newest)],
    ['advise', ['--json'], (stdout, newest) => expect(JSON.parse(stdout).dir).toBe(newest)],
    ['report', [], (stdout, newest) => expect(stdout).toContain(`wrote ${join(newest, 'results.json')}`)],
  ])('%s', async (command, args, check) => {
    const { dir, newest } = resultsWithTwoFolders();
    const { stdout, stderr } = await cli([command, ...args], { cwd: dir });
    expect(stderr).toBe(`results folder: ${newest} (the newest under ${join(dir, 'results')}; name a DIR for another)`);
    check(stdout, newest);
  });

  test('none under results/: exit 2, saying so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-newest-'));
    const { stderr, exitCode } = await cli(['claims'], { cwd: dir });
    expect(exitCode).toBe(2);
    expect(stderr).toContain(`no results folder given, and none under ${join(dir, 'results')}`);
  });
});

describe('--json: one document on stdout, nothing else there', () => {
  test('plan --json, and warnings stay on stderr', async () => {
    const { stdout, exitCode } = await cli(['plan', '--json', '--seed', '3']);
    expect(exitCode).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ count: 24, seed: 3, experiments: [{ name: 'pool-vs-cores' }] });
    const dir = mkdtempSync(join(tmpdir(), 'cli-json-'));
    // A quota above its cpuset's CPUs is valid but surely unmeant: a warning.
    writeFileSync(
      join(dir, 'warned.yml'),
      'experiments:\n  w:\n    matrix: {workload: [pbkdf2], cpus: [2], cpuset: ["0"]}\n',
    );
    const warned = await cli(['plan', '--json', '--config', join(dir, 'warned.yml')]);
    expect(warned.stderr).toMatch(/warning:/);
    expect(JSON.parse(warned.stdout).warnings).toEqual([
      expect.objectContaining({ path: expect.any(String), message: expect.any(String) }),
    ]);
  });

  test('claims --json: the exit status of the verdicts', async () => {
    const { stdout, exitCode } = await cli(['claims', FIXTURE, '--json']);
    expect(exitCode).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ dir: FIXTURE, exit_code: 0, claims_verdict: null, claims: [] });
  });

  test("compare --json with a failing gate: exit 1, the CSV's path on stderr", async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'cli-json-')), 'c.csv');
    const { stdout, stderr, exitCode } = await cli([
      'compare',
      FIXTURE_B,
      FIXTURE,
      '--threshold',
      '5%',
      '--out',
      out,
      '--json',
    ]);
    expect(exitCode).toBe(1);
    expect(stderr).toBe(`wrote ${out}`);
    const compared = JSON.parse(stdout);
    expect(compared).toMatchObject({ gate: 'failed', file: out });
    expect(compared.regressions.length).toBeGreaterThan(0);
    expect(compared.regressions.every((row) => row.regression && row.verdict === 'worse')).toBe(true);
  });
});

describe('--json on the commands that write files: what they wrote', () => {
  test('report --json: each folder rebuilt, and the files written in it', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'cli-json-')), 'folder');
    cpSync(FIXTURE, dir, { recursive: true });
    const { stdout, stderr, exitCode } = await cli(['report', dir, '--json']);
    expect([exitCode, stderr]).toEqual([0, '']);
    expect(JSON.parse(stdout)).toEqual({
      folders: [{ dir, files: expect.arrayContaining([join(dir, 'results.json'), join(dir, 'report.md')]) }],
    });
  });

  test('init --json: the file, its kind, the CPUs, the budgets and the memory limit written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-json-'));
    writeFileSync(join(dir, 'hash.js'), 'export default function hash() {\n  return 1;\n}\n');
    const { stdout, exitCode } = await cli(['init', '--script', 'hash.js', '--cpus', '1', '--json'], {
      cwd: dir,
      // No engine here: init counts this machine's CPUs instead, and says so.
      env: { ...CLEAN_ENV, DOCKER_HOST: 'unix:///nonexistent.sock' },
    });
    expect(exitCode).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      file: join(dir, 'experiments.yml'),
      kind: 'script',
      cpus: { count: expect.any(Number), source: expect.any(String) },
      budgets: { values: [1], from: '--cpus' },
      memory: null,
      notices: [],
      request: null,
      warnings: [],
    });
  });
});

describe('npm run aliases', () => {
  test('a path typed in a subfolder is relative to that subfolder (INIT_CWD), not the package folder', async () => {
    const { stdout, exitCode } = await execa(
      'npm',
      ['run', '--silent', 'claims', '--', '../test/fixtures/results/pool-vs-cores', '--json'],
      { cwd: join(ROOT, 'docs'), reject: false, env: CLEAN_ENV, extendEnv: false },
    );
    expect(exitCode).toBe(0);
    expect(JSON.parse(stdout).dir).toBe(FIXTURE);
  });
});

describe('readCallerPaths', () => {
  const packageDir = ROOT;
  const npm = { npm_lifecycle_event: 'claims', npm_package_name: 'node-threads-lab', INIT_CWD: '/home/me/somewhere' };

  test('a bin: typed paths and defaults both from the current folder', () => {
    expect(readCallerPaths({ env: {}, cwd: '/home/me/service', packageDir })).toEqual({
      typed: '/home/me/service',
      defaults: '/home/me/service',
      npmScript: false,
    });
  });

  test("this package's npm script: typed paths from INIT_CWD, defaults from the package folder", () => {
    expect(readCallerPaths({ env: npm, cwd: packageDir, packageDir })).toEqual({
      typed: '/home/me/somewhere',
      defaults: packageDir,
      npmScript: true,
    });
  });

  test("another package's npm script, or ours started elsewhere: the bin's rule", () => {
    expect(
      readCallerPaths({ env: { ...npm, npm_package_name: 'my-service' }, cwd: packageDir, packageDir }).npmScript,
    ).toBe(false);
    expect(readCallerPaths({ env: npm, cwd: realpathSync(tmpdir()), packageDir }).npmScript).toBe(false);
  });
});
