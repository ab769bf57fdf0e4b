// The API (runner/index.js) on what needs no Docker: plan from a file and from an object, judge, compare and report on
// the committed results folders, init's three kinds (with the CPU count given, so no engine is asked), and run()'s
// shape: an event emitter that is also a promise, rejecting a bad config before anything starts.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { EventEmitter } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compare, init, judge, LabError, plan, report, run } from '../../../runner/index.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FIXTURE = join(ROOT, 'test/fixtures/results/pool-vs-cores');
const FIXTURE_B = join(ROOT, 'test/fixtures/results/pool-vs-cores-b');
const CPUS = { count: 2, source: 'the test' };

describe('plan', () => {
  test('a file: every run in order, the cells as run.json has them, the same order for the same seed', async () => {
    const planned = await plan(join(ROOT, 'experiments.yml'), { seed: 1 });
    expect(planned).toMatchObject({
      config_file: join(ROOT, 'experiments.yml'),
      seed: 1,
      resumed_from: null,
      count: 24,
      warnings: [],
    });
    expect(planned.experiments.map(({ name, cells, runs }) => [name, cells.length, runs.length])).toEqual([
      ['pool-vs-cores', 12, 24],
    ]);
    expect(planned.experiments[0].cells[0]).toEqual(
      expect.objectContaining({
        cell: expect.any(String),
        values: { workload: 'pbkdf2', cpus: 1, uv_threadpool_size: 1 },
        node_major: 24,
      }),
    );
    expect((await plan(join(ROOT, 'experiments.yml'), { seed: 1 })).experiments[0].runs).toEqual(
      planned.experiments[0].runs,
    );
    expect(JSON.parse(JSON.stringify(planned))).toEqual(planned);
  });

  test('an object is checked as a file is, its mistakes named by key path', async () => {
    const planned = await plan({
      experiments: { tiny: { repetitions: 2, matrix: { workload: ['pbkdf2'], cpus: [1, 2] } } },
    });
    expect(planned).toMatchObject({ config_file: null, count: 4 });
    await expect(
      plan({ experiments: { tiny: { matrix: { workload: ['pbkdf2'], threads: [1] } } } }),
    ).rejects.toMatchObject({
      code: 'ERR_CONFIG_INVALID',
      exitCode: 2,
      message: expect.stringMatching(/unknown axis `threads`/),
    });
  });

  test('a file that is not there: exit 2, the file named', async () => {
    await expect(plan(join(tmpdir(), 'no-such-experiments.yml'))).rejects.toMatchObject({
      code: 'ERR_CONFIG_UNREADABLE',
      exitCode: 2,
    });
  });
});

describe('run', () => {
  test('is an event emitter and a promise; a bad config rejects it before any event', async () => {
    const tracker = run({ experiments: { x: { matrix: { workload: ['nope'] } } } });
    expect(tracker).toBeInstanceOf(EventEmitter);
    expect(typeof tracker.then).toBe('function');
    expect(tracker.preparing).toBe(true);
    const seen = [];
    tracker.on('plan', () => seen.push('plan'));
    await expect(tracker).rejects.toBeInstanceOf(LabError);
    expect(seen).toEqual([]);
  });
});

describe('judge', () => {
  test('the claims run.json has (none here): every step, exit 0', async () => {
    const verdicts = await judge(FIXTURE);
    expect(verdicts).toMatchObject({
      dir: FIXTURE,
      experiment: 'pool-vs-cores',
      claims_from: 'run.json',
      exit_code: 0,
      claims_verdict: null,
      claims: [],
    });
    expect(verdicts.steps.length).toBeGreaterThan(0);
    expect(verdicts.leaders.map((leader) => leader.axis)).toEqual(['cpus', 'cpus']);
  });

  test("claims given as experiments.yml writes them: checked against the folder's matrix, then judged", async () => {
    const holds = {
      says: 'faster on 2 CPUs',
      compare: { cpus: [1, 2] },
      where: { workload: 'argon2', uv_threadpool_size: 4 },
      expect: { below: 0.7 },
    };
    const verdicts = await judge(FIXTURE, [holds]);
    expect(verdicts).toMatchObject({ claims_from: 'given', exit_code: 0, claims_verdict: 'holds' });
    expect(verdicts.claims.find((row) => row.kind === 'claim-overall')).toMatchObject({
      says: 'faster on 2 CPUs',
      axis: 'cpus',
      verdict: 'holds',
    });
    const refuted = await judge(FIXTURE, [{ ...holds, expect: { above: 0.9 } }]);
    expect(refuted).toMatchObject({ exit_code: 1, claims_verdict: 'refuted' });
    await expect(judge(FIXTURE, [{ ...holds, compare: { cpus: [1, 16] } }])).rejects.toMatchObject({
      code: 'ERR_USAGE',
      message: expect.stringContaining('claims[0].compare.cpus[1]: 16 is not a value of `cpus`'),
    });
  });
});

test('compare: rows of compare.csv and a gate; the CSV only when asked for', async () => {
  const passed = await compare(FIXTURE, FIXTURE_B, { threshold: 0.05 });
  expect(passed).toMatchObject({
    a: FIXTURE,
    b: FIXTURE_B,
    threshold: 0.05,
    match_on: null,
    gate: 'passed',
    file: null,
    regressions: [],
  });
  expect(passed.rows).toHaveLength(16);
  expect((await compare(FIXTURE, FIXTURE_B)).gate).toBeNull();
  const out = join(mkdtempSync(join(tmpdir(), 'api-compare-')), 'c.csv');
  expect((await compare(FIXTURE_B, FIXTURE, { threshold: 0.05, out })).gate).toBe('failed');
  expect(readFileSync(out, 'utf8').split('\r\n')[0]).toMatch(/^cell,cell_b,/);
});

test("report: the files written and results.json's document", async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'api-report-')), 'pool-vs-cores');
  cpSync(FIXTURE, dir, { recursive: true });
  const { files, results } = await report(dir);
  expect(files).toContain(join(dir, 'results.json'));
  expect(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'))).toEqual(results);
  expect(results.cells).toHaveLength(16);
});

describe('init', () => {
  function serviceFolder() {
    const dir = mkdtempSync(join(tmpdir(), 'api-init-'));
    mkdirSync(join(dir, 'lib'));
    writeFileSync(join(dir, 'lib', 'hash.js'), 'export async function hash() { return { rounds: 1 }; }\n');
    return dir;
  }

  test('a function: a file that plans as its comment says, every line of the matrix commented', async () => {
    const dir = serviceFolder();
    const written = await init({
      script: join(dir, 'lib/hash.js'),
      export: 'hash',
      config: join(dir, 'experiments.yml'),
      cpus: CPUS,
    });
    expect(written).toMatchObject({ file: join(dir, 'experiments.yml'), kind: 'script', cpus: CPUS });
    expect(readFileSync(written.file, 'utf8')).toBe(written.text);
    expect(written.text).toContain('# CPUs: 2, from the test.');
    // The function calls nothing that runs on libuv's pool: no pool axis, and a line that says why.
    expect(written.text).toMatch(
      /matrix: +# every combination is one cell: 4 cells × 2 = 8 runs to start, at most 32 in all/,
    );
    expect(written.text).toContain("# no uv_threadpool_size: no call in your module runs on libuv's pool");
    for (const line of written.text.split('\n').filter((text) => /^ {6}\w+: \[/.test(text)))
      expect(line).toMatch(/# \S/);
    const planned = await plan(written.file, { seed: 1 });
    expect(planned.count).toBe(8);
    expect(planned.experiments[0].cells.map(({ values }) => values)).toContainEqual({
      workload: 'script',
      cpus: 2,
      workers: 2,
    });
  });

  test('never over an existing file (exit 2), and one kind of code at a time', async () => {
    const dir = serviceFolder();
    const config = join(dir, 'experiments.yml');
    writeFileSync(config, 'mine\n');
    await expect(init({ script: join(dir, 'lib/hash.js'), config, cpus: CPUS })).rejects.toMatchObject({
      code: 'ERR_FILE_EXISTS',
      exitCode: 2,
    });
    expect(readFileSync(config, 'utf8')).toBe('mine\n');
    await expect(
      init({ script: join(dir, 'lib/hash.js'), command: 'perl x.pl', config: join(dir, 'other.yml'), cpus: CPUS }),
    ).rejects.toMatchObject({ code: 'ERR_USAGE' });
    await expect(
      init({ command: 'ls *.js | wc -l', config: join(dir, 'other.yml'), cpus: CPUS }),
    ).rejects.toMatchObject({ code: 'ERR_USAGE', message: expect.stringContaining('without a shell') });
    expect(existsSync(join(dir, 'other.yml'))).toBe(false);
  });
});
