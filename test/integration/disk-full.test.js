// A results folder on a full disk, on the real engine: a small tmpfs (mounted here, as root; unmounted after) fills
// up after the first row. The runner names the file, says what to do, exits 4, leaves no container and keeps every
// row written; with space freed, --resume finishes the matrix.
import { parse } from 'csv-parse/sync';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { connectTestEngine, createOwnRunner, listOwnContainers, waitFor } from '../support/docker-helpers.js';

const { run: runCli, owners } = createOwnRunner();
const CONFIG = fileURLToPath(new URL('../fixtures/integration/disk-full.yml', import.meta.url));
const readRows = (file) => (existsSync(file) ? parse(readFileSync(file, 'utf8'), { columns: true }) : []);

const mountpoint = mkdtempSync(join(tmpdir(), 'lab-disk-full-'));
const outDir = join(mountpoint, 'results');
const filler = join(mountpoint, 'filler');
let docker;

beforeAll(async () => {
  if (process.getuid?.() !== 0) throw new Error('this test mounts a tmpfs: run it as root (CI does)');
  docker = await connectTestEngine();
  await execa('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mountpoint]);
});

afterAll(async () => {
  const { exitCode } = await execa('umount', [mountpoint], { reject: false });
  if (exitCode !== 0) await execa('umount', ['-l', mountpoint], { reject: false });
  rmSync(mountpoint, { recursive: true, force: true });
});

function fillDisk() {
  const fd = openSync(filler, 'a');
  try {
    for (;;) writeSync(fd, Buffer.alloc(65536, 120));
  } catch (error) {
    if (error.code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

test('full between two runs: exit 4 naming the file, no container left, the rows kept; --resume finishes', async () => {
  const planned = JSON.parse((await runCli(['plan', '--config', CONFIG, '--json'])).stdout).count;
  const child = runCli(['run', '--config', CONFIG, '--out', outDir]);
  await waitFor(() => readRows(join(outDir, 'runs.csv')).length >= 1, { everyMs: 20 });
  fillDisk();
  const stopped = await child;
  expect(stopped.stderr).toMatch(
    new RegExp(`cannot write (tasks|runs)\\.csv in ${outDir}: no space left on the device \\(ENOSPC\\)`),
  );
  expect(stopped.stderr).toMatch(
    /already in runs\.csv \(with (its|their) tasks\) (is|are) kept.*; no container is left\./,
  );
  expect(stopped.stderr).toContain(
    `free space on that disk (df -h ${outDir}), then finish the matrix where it stopped: npm run matrix -- --resume ${outDir}`,
  );
  expect(stopped.stderr).not.toMatch(/\n\s+at /);
  expect(stopped.exitCode).toBe(4);
  expect(await listOwnContainers(docker, owners)).toEqual([]);

  // Every row is whole, and every run in runs.csv has its 100 tasks and no other run has any.
  const runs = readRows(join(outDir, 'runs.csv'));
  const tasks = readRows(join(outDir, 'tasks.csv'));
  expect(runs.length).toBeGreaterThanOrEqual(1);
  expect(runs.length).toBeLessThan(planned);
  expect(runs.every((row) => row.status === 'ok')).toBe(true);
  const keys = new Set(runs.map((row) => `${row.cell}.${row.repetition}`));
  expect(tasks).toHaveLength(100 * runs.length);
  expect(tasks.every((task) => keys.has(`${task.cell}.${task.repetition}`))).toBe(true);

  rmSync(filler);
  const resumed = await runCli(['run', '--resume', outDir]);
  expect(resumed.exitCode).toBe(0);
  expect(readRows(join(outDir, 'runs.csv'))).toHaveLength(planned);
  expect(readRows(join(outDir, 'tasks.csv'))).toHaveLength(100 * planned);
  expect(await listOwnContainers(docker, owners)).toEqual([]);
});
