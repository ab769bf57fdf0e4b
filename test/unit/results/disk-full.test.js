// A results folder on a full disk, for real but without Docker or root: test/support/disk-full-child.js runs a
// matrix with the fake executor in its own user and mount namespace (`unshare -rm`), on a 256 KiB tmpfs that
// vanishes with the process, so nothing is left mounted whatever happens. The disk fills before run.json, before
// the CSV headers, or between two runs while another lane has a run in flight.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { execa } from 'execa';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CHILD = join(ROOT, 'test/support/disk-full-child.js');

async function runFull(scenario) {
  const mountpoint = mkdtempSync(join(tmpdir(), 'disk-full-'));
  try {
    const { stdout, stderr, exitCode } = await execa(
      'unshare',
      [
        '-rm',
        'sh',
        '-c',
        'mount -t tmpfs -o size=256k tmpfs "$0" && exec node "$1" "$0" "$2"',
        mountpoint,
        CHILD,
        scenario,
      ],
      { reject: false, cwd: ROOT },
    );
    if (exitCode !== 0) throw new Error(`the child failed (exit ${exitCode}): ${stderr}`);
    return { ...JSON.parse(stdout), dir: join(mountpoint, 'results') };
  } finally {
    rmSync(mountpoint, { recursive: true, force: true });
  }
}

const rowsOf = (text) => (text ? parse(text, { columns: true }) : []);

test('between two runs: the file is named, exit status 4, the run in flight stopped, every row written kept whole; --resume finishes', async () => {
  const { stopped, resumed, dir } = await runFull('between');
  expect(stopped.error).toMatchObject({
    code: 'ERR_RESULTS_WRITE',
    exitCode: 4,
    message: `cannot write tasks.csv in ${dir}: no space left on the device (ENOSPC)`,
  });
  expect(stopped.error.hint).toContain(
    'the 1 run already in runs.csv (with its tasks) is kept, whole; no container is left.',
  );
  expect(stopped.error.hint).toContain(
    `free space on that disk (df -h ${dir}), then finish the matrix where it stopped: npm run matrix -- --resume ${dir};`,
  );
  expect(stopped.error.hint).toContain('npm run matrix -- --out OTHER_DIR');
  expect(stopped.error.formatted).not.toMatch(/\n\s+at /);
  // The other lane's run was stopped, not left running; only the run written before the disk filled has rows.
  expect(stopped.aborted).toHaveLength(1);
  const runs = rowsOf(stopped.runsCsv);
  const tasks = rowsOf(stopped.tasksCsv);
  expect(runs).toHaveLength(1);
  expect(tasks).toHaveLength(100);
  expect(tasks.every((task) => task.cell === runs[0].cell && task.repetition === runs[0].repetition)).toBe(true);
  expect(stopped.files).toEqual(['claims.json', 'run.json', 'runs.csv', 'tasks.csv']);
  // Space freed: the three runs not done, each once.
  expect(resumed.calls).toBe(3);
  expect(rowsOf(resumed.runsCsv)).toHaveLength(4);
  expect(new Set(rowsOf(resumed.runsCsv).map((row) => `${row.cell}.${row.repetition}`)).size).toBe(4);
  expect(rowsOf(resumed.tasksCsv)).toHaveLength(400);
});

test('at the start: run.json cannot be written — nothing to resume, so the advice is to run again or elsewhere', async () => {
  const { stopped, resumed, dir } = await runFull('start');
  expect(stopped.error).toMatchObject({
    code: 'ERR_RESULTS_WRITE',
    exitCode: 4,
    message: `cannot write run.json in ${dir}: no space left on the device (ENOSPC)`,
  });
  expect(stopped.error.hint).toContain("no run's row was written; no container is left.");
  expect(stopped.error.hint).toContain('then run the matrix again;');
  expect(stopped.error.hint).not.toContain('--resume');
  expect(stopped.calls).toBe(0);
  expect(stopped.files).toEqual([]);
  expect(resumed).toBeNull();
});

test('at the start: runs.csv cannot get its header — the empty file gets it on --resume', async () => {
  const { stopped, resumed, dir } = await runFull('headers');
  expect(stopped.error).toMatchObject({
    code: 'ERR_RESULTS_WRITE',
    exitCode: 4,
    message: `cannot write runs.csv in ${dir}: no space left on the device (ENOSPC)`,
  });
  expect(stopped.error.hint).toContain(`--resume ${dir}`);
  expect(stopped.calls).toBe(0);
  expect(resumed.calls).toBe(4);
  expect(rowsOf(resumed.runsCsv)).toHaveLength(4);
  expect(rowsOf(resumed.tasksCsv)).toHaveLength(400);
});
