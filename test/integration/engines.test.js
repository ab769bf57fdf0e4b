// One matrix over several engines, and parallel runs on disjoint cpusets (issue 14), on real engines:
// this machine's dockerd, and a second dockerd the test starts with its own data-root, exec-root,
// socket and bridge, reached through a Docker CLI context made by the real `docker context create`.
import { parse } from 'csv-parse/sync';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { resolveEngine } from '../../runner/docker/engines/contexts.js';
import { inspectImageId } from '../../runner/docker/images/image-store.js';
import {
  connectTestEngine,
  createOwnRunner,
  listOwnContainers,
  listOwnRunContainers,
  waitFor,
  watchCreated,
} from '../support/docker-helpers.js';
import { describeDocker0, startSecondEngine } from '../support/second-engine.js';

const fixture = (name) => fileURLToPath(new URL(`../fixtures/integration/${name}`, import.meta.url));
const readRows = (file) => (existsSync(file) ? parse(readFileSync(file, 'utf8'), { columns: true }) : []);
const keysOf = (rows) => rows.map((row) => `${row.cell}.${row.repetition}`);

async function plannedKeys(config, seed, env) {
  const { stdout } = await runCli(['plan', '--config', config, '--seed', String(seed), '--json'], { env });
  return JSON.parse(stdout)
    .experiments.flatMap((experiment) => experiment.runs)
    .map(({ cell, repetition }) => `${cell}.${repetition}`)
    .sort();
}

// Other runners may share the engine (other tests, other people): only this file's runners' containers count.
const own = createOwnRunner();
const runCli = (args, options) => own.run(args, options);
const ownContainers = (engineDocker) => listOwnContainers(engineDocker, own.owners);
const runContainers = (engineDocker) => listOwnRunContainers(engineDocker, own.owners);

let docker;
beforeAll(async () => {
  docker = await connectTestEngine();
});

afterEach(async () => {
  expect(await ownContainers(docker)).toEqual([]);
});

describe('one matrix over two engines', () => {
  let second;
  let docker0Before;
  let env;

  beforeAll(async () => {
    docker0Before = await describeDocker0();
    second = await startSecondEngine();
    env = { DOCKER_CONFIG: mkdtempSync(join(tmpdir(), 'lab-docker-config-')) };
    await execa('docker', ['context', 'create', 'ntl-second', '--docker', `host=${second.host}`], { env });
  });

  afterAll(async () => {
    await second?.remove();
    // The first engine's network is untouched by a second dockerd with a bridge of its own.
    expect(await describeDocker0()).toBe(docker0Before);
    expect(docker0Before).toMatch(/inet \d+\.\d+\.\d+\.\d+\/\d+/);
  });

  test('a context made by `docker context create` is read from the CLI store', () => {
    expect(resolveEngine('ntl-second', { env })).toMatchObject({
      name: 'ntl-second',
      host: second.host,
      source: 'context',
    });
  });

  test('both engines run one matrix: every run once, both in `engine`, the image sent and checked by id, facts in run.json', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'lab-two-'));
    const result = await runCli(
      [
        'run',
        '--config',
        fixture('slots.yml'),
        '--out',
        outDir,
        '--engine',
        'default',
        '--engine',
        'ntl-second',
        '--seed',
        '5',
      ],
      { env },
    );
    expect(result.exitCode).toBe(0);
    const rows = readRows(join(outDir, 'runs.csv'));
    expect(keysOf(rows).sort()).toEqual(await plannedKeys(fixture('slots.yml'), 5, env));
    expect(new Set(rows.map((row) => row.engine))).toEqual(new Set(['default', 'ntl-second']));
    // Each cell has two repetitions and there are two engines: one on each.
    for (const cell of new Set(rows.map((row) => row.cell))) {
      expect(
        rows
          .filter((row) => row.cell === cell)
          .map((row) => row.engine)
          .sort(),
      ).toEqual(['default', 'ntl-second']);
    }
    const info = JSON.parse(readFileSync(join(outDir, 'run.json'), 'utf8'));
    expect(info.engines.map((engine) => [engine.name, engine.host])).toEqual([
      ['default', 'unix:///var/run/docker.sock'],
      ['ntl-second', second.host],
    ]);
    for (const engine of info.engines) {
      expect(engine).toMatchObject({
        cpus: expect.any(Number),
        cpu_model: expect.any(String),
        memory_bytes: expect.any(Number),
        kernel: expect.any(String),
        cgroup_version: expect.stringMatching(/^[12]$/),
        docker_version: expect.any(String),
      });
      expect(engine.cpu_ids.length).toBe(engine.cpus);
    }
    expect(Object.keys(info.summary.placements).sort()).toEqual(keysOf(rows).sort());
    const [image] = Object.values(info.images);
    expect(await inspectImageId(second.docker, image.tag)).toBe(image.id);
    expect(await ownContainers(second.docker)).toEqual([]);
  });

  test('`engine` as an axis: each cell runs on the engine it names', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'lab-axis-'));
    const result = await runCli(
      ['run', '--config', fixture('engine-axis.yml'), '--out', outDir, '--engine', 'default', '--engine', 'ntl-second'],
      { env },
    );
    expect(result.exitCode).toBe(0);
    const rows = readRows(join(outDir, 'runs.csv'));
    expect(rows).toHaveLength(4);
    for (const row of rows) expect(row.status).toBe('ok');
    const info = JSON.parse(readFileSync(join(outDir, 'run.json'), 'utf8'));
    for (const row of rows) expect(info.cells.find((cell) => cell.cell === row.cell).values.engine).toBe(row.engine);
  });

  test('SIGINT stops and removes the runs on both engines', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'lab-int2-'));
    const child = runCli(
      [
        'run',
        '--config',
        fixture('engines-long.yml'),
        '--out',
        outDir,
        '--engine',
        'default',
        '--engine',
        'ntl-second',
      ],
      { env },
    );
    await waitFor(
      async () => (await runContainers(docker)).length > 0 && (await runContainers(second.docker)).length > 0,
      { timeoutMs: 120_000 },
    );
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(await ownContainers(second.docker)).toEqual([]);
    for (const row of readRows(join(outDir, 'runs.csv'))) expect(row.status).toBe('ok');
  });

  test('the second engine hung mid-run (SIGSTOP): the watchdog gives it up in seconds, not after the 120 s timeout', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'lab-hung-'));
    const child = runCli(
      [
        'run',
        '--config',
        fixture('engines-long.yml'),
        '--out',
        outDir,
        '--engine',
        'default',
        '--engine',
        'ntl-second',
        '--seed',
        '9',
      ],
      { env },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    await waitFor(async () => (await runContainers(second.docker)).length > 0, { timeoutMs: 120_000, everyMs: 50 });
    const stoppedAt = Date.now();
    process.kill(second.pid, 'SIGSTOP');
    try {
      // A stopped dockerd keeps its socket: no refusal, no reset, only silence. Only the watchdog can tell.
      await waitFor(() => /Engine ntl-second lost: .*no answer for \d+ s/.test(stderr), {
        timeoutMs: 60_000,
        everyMs: 50,
      });
      process.stderr.write(`hung engine given up ${Date.now() - stoppedAt} ms after SIGSTOP\n`);
      const result = await child;
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toMatch(/lost engine ntl-second during the matrix/);
      expect(Date.now() - stoppedAt).toBeLessThan(120_000);
      const rows = readRows(join(outDir, 'runs.csv'));
      expect(keysOf(rows).sort()).toEqual(await plannedKeys(fixture('engines-long.yml'), 9, env));
    } finally {
      process.kill(second.pid, 'SIGCONT');
    }
  });

  test('the second engine killed mid-matrix: noticed in seconds, its run goes to the first, every run exactly once, exit 1 naming it', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'lab-kill-'));
    const child = runCli(
      [
        'run',
        '--config',
        fixture('engines-long.yml'),
        '--out',
        outDir,
        '--engine',
        'default',
        '--engine',
        'ntl-second',
        '--seed',
        '7',
      ],
      { env },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    // Kill it while one of its runs is going, after it has written a row, so both halves are seen.
    await waitFor(() => readRows(join(outDir, 'runs.csv')).some((row) => row.engine === 'ntl-second'), {
      timeoutMs: 120_000,
    });
    await waitFor(async () => (await runContainers(second.docker)).length > 0, { timeoutMs: 60_000, everyMs: 50 });
    const killedAt = Date.now();
    second.kill();
    const [, cutShort] = await waitFor(
      () => /Engine ntl-second lost: engine ntl-second stopped answering during run (\S+):/.exec(stderr),
      { timeoutMs: 60_000, everyMs: 50 },
    );
    const noticedMs = Date.now() - killedAt;
    process.stderr.write(`engine loss noticed ${noticedMs} ms after SIGKILL\n`);
    const result = await child;
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(
      /lost engine ntl-second during the matrix: .*every run finished on the other engines/,
    );
    // The whole matrix took less than one run's 120 s timeout: the loss was noticed, not waited out.
    expect(Date.now() - killedAt).toBeLessThan(120_000);
    const rows = readRows(join(outDir, 'runs.csv'));
    expect(keysOf(rows).sort()).toEqual(await plannedKeys(fixture('engines-long.yml'), 7, env));
    for (const row of rows) expect(row.status).toBe('ok');
    // The run cut short on the dead engine has no row there: it was done again on the first.
    expect(rows.filter((row) => `${row.cell}.${row.repetition}` === cutShort).map((row) => row.engine)).toEqual([
      'default',
    ]);

    // Back up, the dead runner's container on it is an orphan, found and removed by the next start.
    await second.start();
    const next = await runCli(
      [
        'run',
        '--config',
        fixture('slots.yml'),
        '--out',
        join(outDir, 'next'),
        '--engine',
        'default',
        '--engine',
        'ntl-second',
      ],
      { env },
    );
    expect(next.exitCode).toBe(0);
    expect(next.stderr).toMatch(
      /Removed 1 container\(s\) left behind by an earlier run that was killed on engine ntl-second/,
    );
    expect(await ownContainers(second.docker)).toEqual([]);
  });

  test("the only engine killed mid-run: rows kept, exit 1 with the resume hint; --resume after a restart removes the dead run's container and finishes", async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'lab-only-'));
    const child = runCli(
      ['run', '--config', fixture('engines-long.yml'), '--out', outDir, '--engine', 'ntl-second', '--seed', '4'],
      { env },
    );
    await waitFor(() => readRows(join(outDir, 'runs.csv')).length >= 1, { timeoutMs: 120_000 });
    await waitFor(async () => (await runContainers(second.docker)).length > 0, { timeoutMs: 60_000, everyMs: 50 });
    second.kill();
    const result = await child;
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(
      /lost engine ntl-second during the matrix: .*\d+ run\(s\) not done: no engine left that may take them/,
    );
    expect(result.stderr).toContain(`start ntl-second again, then: node-threads-lab run --resume ${outDir}`);
    const before = readRows(join(outDir, 'runs.csv'));
    expect(before.length).toBeGreaterThanOrEqual(1);

    await second.start();
    // The resume goes back to the engine recorded in run.json.
    const resumed = await runCli(['run', '--resume', outDir], { env });
    expect(resumed.exitCode).toBe(0);
    expect(resumed.stderr).toMatch(/Removed 1 container\(s\) left behind by an earlier run that was killed/);
    const after = readRows(join(outDir, 'runs.csv'));
    expect(after.slice(0, before.length)).toEqual(before);
    expect(keysOf(after).sort()).toEqual(await plannedKeys(fixture('engines-long.yml'), 4, env));
    for (const row of after) expect(row.engine).toBe('ntl-second');
  });
});

describe('--slots 2 on one engine', () => {
  test('two single-CPU runs at once, on cpusets 0 and 1', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'lab-slots-'));
    const result = await runCli([
      'run',
      '--config',
      fixture('slots.yml'),
      '--out',
      outDir,
      '--slots',
      '2',
      '--seed',
      '3',
    ]);
    expect(result.exitCode).toBe(0);
    const rows = readRows(join(outDir, 'runs.csv'));
    expect(rows).toHaveLength(4);
    expect(new Set(rows.map((row) => row.slot_cpuset))).toEqual(new Set(['0', '1']));
    // Each run was confined to its slot, as the process inside saw it.
    for (const row of rows) expect(row.seen_cpuset).toBe(row.slot_cpuset);
    const span = (row) => [Date.parse(row.started_at), Date.parse(row.finished_at)];
    const inSlot = (cpuset) => rows.filter((row) => row.slot_cpuset === cpuset).map(span);
    const overlaps = inSlot('0').some(([a0, a1]) => inSlot('1').some(([b0, b1]) => a0 < b1 && b0 < a1));
    expect(overlaps).toBe(true);
    const info = JSON.parse(readFileSync(join(outDir, 'run.json'), 'utf8'));
    expect(info.slots).toBe(2);
    expect(info.engines[0].slots).toEqual(['0', '1']);
  });

  test('a quota that does not fit a slot: exit 2 before any container, naming the cell and what fits', async () => {
    const created = await watchCreated(docker, own.owners);
    const result = await runCli([
      'run',
      '--config',
      fixture('slots-too-big.yml'),
      '--out',
      join(tmpdir(), 'never-written'),
      '--slots',
      '2',
    ]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(
      /slots-too-big\.yml:8:\d+: experiments\.too-big\.matrix\.cpus\[1\]: cell \w+ \(workload=pbkdf2 cpus=2\): cpus 2 does not fit a slot of engine default \(--slots 2: 1 CPU\(s\) each, 0 \| 1\); what fits: cpus up to 1, cpuset within 0/,
    );
    expect(await created.count()).toBe(0);
  });
});
