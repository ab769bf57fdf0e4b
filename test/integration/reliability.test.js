// Nothing lost, nothing left behind: signals, resume, faults as rows, orphans, locked-down containers.
import { parse } from 'csv-parse/sync';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { formatOwner, readProcessStat } from '../../runner/docker/runs/owner.js';
import { runContainer } from '../../runner/docker/runs/run-container.js';
import {
  connectTestEngine,
  createOwnRunner,
  listOwnContainers,
  listOwnRunContainers,
  waitFor,
  watchCreated,
} from '../support/docker-helpers.js';

// Every runner this file starts; the engine may run other people's containers meanwhile.
const { run: runCli, owners } = createOwnRunner();

const fixture = (name) => fileURLToPath(new URL(`../fixtures/integration/${name}`, import.meta.url));
const CLI = fileURLToPath(new URL('../../runner/cli.js', import.meta.url));
const readRows = (file) => (existsSync(file) ? parse(readFileSync(file, 'utf8'), { columns: true }) : []);

let docker;
beforeAll(async () => {
  docker = await connectTestEngine();
});

afterEach(async () => {
  expect(await listOwnContainers(docker, owners)).toEqual([]);
});

describe('Ctrl-C and --resume', () => {
  const outDir = join(mkdtempSync(join(tmpdir(), 'lab-int-')), 'out');
  let planned;

  test('SIGINT after the first row: exit 130, whole rows only, no container left, resume hint', async () => {
    planned = JSON.parse(
      (await runCli(['plan', '--config', fixture('interrupt.yml'), '--seed', '11', '--json'])).stdout,
    ).count;
    const child = runCli(['run', '--config', fixture('interrupt.yml'), '--out', outDir, '--seed', '11']);
    await waitFor(() => readRows(join(outDir, 'runs.csv')).length >= 1);
    // Interrupt while the next run's container is up, the hard case.
    await waitFor(async () => (await listOwnRunContainers(docker, owners)).length > 0);
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(result.stderr).toMatch(/SIGINT: stopping/);
    expect(result.stderr).toContain(`node-threads-lab run --resume ${outDir}`);
    const text = readFileSync(join(outDir, 'runs.csv'), 'utf8');
    expect(text.endsWith('\r\n')).toBe(true);
    const rows = parse(text, { columns: true });
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows.length).toBeLessThan(planned);
    for (const row of rows) expect(row.status).toBe('ok');
  });

  test('--resume runs exactly the missing runs and appends them', async () => {
    const before = readRows(join(outDir, 'runs.csv'));
    const result = await runCli(['run', '--resume', outDir]);
    expect(result.exitCode).toBe(0);
    const after = readRows(join(outDir, 'runs.csv'));
    expect(after).toHaveLength(planned);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(new Set(after.map((row) => `${row.cell}.${row.repetition}`)).size).toBe(planned);
    expect(result.stderr).toContain(`${planned - before.length} runs →`);
    const info = JSON.parse(readFileSync(join(outDir, 'run.json'), 'utf8'));
    expect(info.seed).toBe(11);
    expect(info.resumed).toHaveLength(1);
  });

  test('--resume refuses a folder whose config no longer matches', async () => {
    const { writeFileSync } = await import('node:fs');
    const changed = join(mkdtempSync(join(tmpdir(), 'lab-cfg-')), 'experiments.yml');
    writeFileSync(
      changed,
      readFileSync(fixture('interrupt.yml'), 'utf8').replace('iterations: 150000', 'iterations: 150001'),
    );
    const result = await runCli(['run', '--resume', outDir, '--config', changed]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/cannot resume experiment interrupt: .*`params` changed/);
  });
});

describe('a second Ctrl-C', () => {
  test('right after the first still leaves no container and no partial row', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'lab-twice-'));
    const child = runCli(['run', '--config', fixture('long.yml'), '--out', outDir]);
    await waitFor(async () => (await listOwnRunContainers(docker, owners)).length > 0);
    child.kill('SIGINT');
    await delay(20);
    child.kill('SIGINT');
    const result = await child;
    // Either the second signal met the runner still stopping (its handler removes the containers and
    // exits 130), or the runner had already cleaned up and the signal ended it as SIGINT does.
    if (result.exitCode === 130) expect(result.stderr).toMatch(/SIGINT(: stopping| again: removing containers)/);
    else expect(result.signal).toBe('SIGINT');
    expect(readFileSync(join(outDir, 'runs.csv'), 'utf8').split('\r\n').filter(Boolean)).toHaveLength(1);
  });
});

describe('faults become rows, not crashes', () => {
  test('timeout, oom and a crashing workload each get their status; the matrix goes on', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'lab-faults-'));
    const result = await runCli(['run', '--config', fixture('faults.yml'), '--out', outDir]);
    expect(result.exitCode).toBe(1);
    expect(readdirSync(outDir).sort()).toEqual(['crash', 'fine', 'oom', 'timeout']);
    const only = (name) => {
      const rows = readRows(join(outDir, name, 'runs.csv'));
      expect(rows).toHaveLength(1);
      return rows[0];
    };
    expect(only('timeout')).toMatchObject({ status: 'timeout', wall_ms: '' });
    expect(only('timeout').error).toMatch(/killed after the 2 s timeout/);
    expect(only('oom')).toMatchObject({ status: 'oom', exit_code: '137' });
    expect(only('oom').error).toMatch(/over the 96m limit/);
    expect(only('crash').status).toBe('failed');
    expect(only('crash').error).toMatch(/exited with code \d+; stderr: .*no-such-flag/);
    expect(only('fine').status).toBe('ok');
  });

  test('--fail-fast stops at the first run that is not ok', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'lab-ff-'));
    const result = await runCli([
      'run',
      '--config',
      fixture('faults.yml'),
      '--out',
      outDir,
      '--only',
      'crash,fine',
      '--fail-fast',
    ]);
    expect(result.exitCode).toBe(1);
    expect(existsSync(join(outDir, 'fine', 'runs.csv'))).toBe(false);
  });
});

describe('orphans of a killed runner', () => {
  test('the next start removes them and says so', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'lab-orphan-'));
    const child = runCli(['run', '--config', fixture('long.yml'), '--out', outDir]);
    const [orphan] = await waitFor(async () => {
      const found = await listOwnRunContainers(docker, owners);
      return found.length > 0 && found;
    });
    child.kill('SIGKILL');
    await child;
    expect((await listOwnContainers(docker, owners)).map((c) => c.Id)).toEqual([orphan.Id]);
    const next = await runCli([
      'run',
      '--config',
      fixture('faults.yml'),
      '--only',
      'fine',
      '--out',
      join(outDir, 'next'),
    ]);
    expect(next.exitCode).toBe(0);
    // Other killed runners' orphans on a shared engine would be removed too: at least this one.
    expect(next.stderr).toMatch(/Removed \d+ container\(s\) left behind by an earlier run that was killed/);
    expect(await listOwnContainers(docker, owners)).toEqual([]);
  });

  // A runner whose parent does not reap it stays a zombie after SIGKILL (here `sleep` is its parent, as PID 1 is
  // for an orphaned runner): signal 0 still reaches a zombie, so its pid alone would pass for a live runner.
  test('right after a SIGKILLed runner (a zombie still), the next start removes its container, every time', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'lab-zombie-'));
    for (let round = 1; round <= 5; round++) {
      const parent = execa(
        'sh',
        [
          '-c',
          `"${process.execPath}" "${CLI}" run --config "${fixture('long.yml')}" --out "${join(outDir, `killed-${round}`)}" & exec sleep 120`,
        ],
        { reject: false },
      );
      let runnerPid;
      // A round that fails must not leave its runner or `sleep 120` running into the next test file: a child of
      // execa that ends after this file's teardown makes Jest's soft-deleted globals overflow the stack there.
      try {
        runnerPid = await waitFor(() => Number(readChildren(parent.pid)[0]) || false);
        owners.add(formatOwner(runnerPid));
        const [orphan] = await waitFor(async () => {
          const found = await listOwnRunContainers(docker, owners);
          return found.length > 0 && found;
        });
        process.kill(runnerPid, 'SIGKILL');
        await waitFor(() => readProcessStat(runnerPid)?.state === 'Z');
        const next = await runCli([
          'run',
          '--config',
          fixture('faults.yml'),
          '--only',
          'fine',
          '--out',
          join(outDir, `next-${round}`),
        ]);
        expect(next.exitCode).toBe(0);
        expect((await listOwnContainers(docker, owners)).map((container) => container.Id)).not.toContain(orphan.Id);
      } finally {
        const left = runnerPid && readProcessStat(runnerPid);
        if (left && left.state !== 'Z') process.kill(runnerPid, 'SIGTERM');
        parent.kill('SIGKILL');
        await parent;
      }
    }
  });
});

function readChildren(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  } catch {
    return [];
  }
}

describe('locked-down workload containers', () => {
  test('non-root, no capabilities, no new privileges, read-only root, no network, pids limit', async () => {
    const script = [
      "const fs = require('fs'); const os = require('os');",
      "const status = fs.readFileSync('/proc/self/status', 'utf8');",
      "let rootWritable = true; try { fs.writeFileSync('/probe', 'x'); } catch { rootWritable = false; }",
      "let tmpWritable = true; try { fs.writeFileSync('/tmp/probe', 'x'); } catch { tmpWritable = false; }",
      'console.log(JSON.stringify({ uid: process.getuid(), gid: process.getgid(),',
      '  capEff: /CapEff:\\s+(\\w+)/.exec(status)[1], capBnd: /CapBnd:\\s+(\\w+)/.exec(status)[1],',
      '  noNewPrivs: /NoNewPrivs:\\s+(\\d)/.exec(status)[1], rootWritable, tmpWritable,',
      "  interfaces: Object.keys(os.networkInterfaces()), dockerSocket: fs.existsSync('/var/run/docker.sock'),",
      "  pidsMax: fs.readFileSync('/sys/fs/cgroup/pids/pids.max', 'utf8').trim() }));",
    ].join('\n');
    const raw = await runContainer(docker, {
      image: process.env.LAB_TEST_IMAGE,
      entrypoint: ['node', '-e', script],
      env: {},
      limits: { memoryBytes: 256 * 2 ** 20 },
      timeoutMs: 30_000,
      labels: {},
    });
    expect(raw.exitCode).toBe(0);
    expect(JSON.parse(raw.stdout)).toEqual({
      uid: 1000,
      gid: 1000,
      capEff: '0000000000000000',
      capBnd: '0000000000000000',
      noNewPrivs: '1',
      rootWritable: false,
      tmpWritable: true,
      interfaces: ['lo'],
      dockerSocket: false,
      pidsMax: '1024',
    });
  });
});

describe('bad input: exit 2, a message with a position, no container', () => {
  const badDir = fileURLToPath(new URL('../fixtures/bad-configs/', import.meta.url));

  test('every broken config of the catalogue, through the real CLI', async () => {
    const created = await watchCreated(docker, owners);
    const files = readdirSync(badDir).filter((name) => name.endsWith('.yml'));
    expect(files.length).toBeGreaterThanOrEqual(20);
    for (const name of files) {
      const text = readFileSync(join(badDir, name), 'utf8');
      // The catalogue's grammar (test/unit/config/bad-configs.test.js): LINE:COLUMN, the key path when the error
      // has one, then part of the message; printed as one line `FILE:LINE:COLUMN: PATH: message`.
      const expectations = [...text.matchAll(/^# expect: (\d+:\d+) (?:(\S+): )?(.+)$/gm)];
      const result = await runCli(['run', '--config', join(badDir, name), '--out', join(tmpdir(), 'never-written')]);
      expect({ name, exitCode: result.exitCode }).toEqual({ name, exitCode: 2 });
      expect(expectations.length).toBeGreaterThan(0);
      const lines = result.stderr.split('\n');
      for (const [, at, path, message] of expectations) {
        const head = `${name}:${at}: ${path ? `${path}: ` : ''}`;
        const line = lines.find((each) => each.includes(head) && each.slice(each.indexOf(head)).includes(message));
        expect({ name, head, message, line }).toEqual({ name, head, message, line: expect.any(String) });
      }
    }
    expect(await created.count()).toBe(0);
  });

  test('a missing config file and an unwritable output folder exit 2 before any container', async () => {
    const created = await watchCreated(docker, owners);
    const missing = await runCli(['run', '--config', '/nonexistent/experiments.yml']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/\/nonexistent\/experiments\.yml.*ENOENT|no such file/i);
    const unwritable = await runCli([
      'run',
      '--config',
      fixture('faults.yml'),
      '--only',
      'fine',
      '--out',
      '/proc/lab-results',
    ]);
    expect(unwritable.exitCode).toBe(2);
    expect(unwritable.stderr).toMatch(/cannot write results to \/proc\/lab-results/);
    expect(await created.count()).toBe(0);
  });
});
