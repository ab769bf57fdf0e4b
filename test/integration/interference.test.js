// Interference on the real engine: busy processes on the host, started by this test and killed after, show in
// the run's interference_pct (against runs without them, alternated, so drift on a shared host hits both), and a
// run under them is marked disturbed, kept, and re-run once when the threshold lies below what they cause.
import { execa } from 'execa';
import { parse } from 'csv-parse/sync';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from '../../runner/stats/statistics.js';
import { connectTestEngine, createOwnRunner, listOwnContainers } from '../support/docker-helpers.js';

const { run: runCli, owners } = createOwnRunner();
const CONFIG = fileURLToPath(new URL('../fixtures/integration/interference.yml', import.meta.url));
const ROUNDS = 3;

/**
 * Busy loops on the host. With the right to raise a priority (root), one loop at nice -20: it takes a whole CPU
 * whatever else the host runs, so the run keeps about half of what it had. Without, one loop per CPU at the default
 * priority, which takes a share like any other thread (less on a host already busy).
 */
function startBusyLoops() {
  const spin = () => execa(process.execPath, ['-e', 'for (;;) {}'], { reject: false });
  const first = spin();
  const loops = [first];
  try {
    os.setPriority(first.pid, -20);
  } catch {
    loops.push(...os.cpus().slice(1).map(spin));
  }
  return { stop: () => Promise.all(loops.map((loop) => (loop.kill('SIGKILL'), loop))) };
}

async function runMatrix(config, { busy }) {
  const outDir = mkdtempSync(join(os.tmpdir(), 'lab-interference-'));
  const loops = busy ? startBusyLoops() : null;
  try {
    const result = await runCli(['run', '--config', config, '--out', outDir]);
    expect(result.exitCode).toBe(0);
  } finally {
    await loops?.stop();
  }
  const rows = parse(readFileSync(join(outDir, 'runs.csv'), 'utf8'), { columns: true });
  return { outDir, rows };
}

describe('interference on the real engine', () => {
  let docker;
  const quiet = [];
  const busy = [];

  beforeAll(async () => {
    docker = await connectTestEngine();
  });

  test('runs beside busy loops show a clearly higher interference_pct than runs without, in alternation', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      quiet.push(...(await runMatrix(CONFIG, { busy: false })).rows);
      busy.push(...(await runMatrix(CONFIG, { busy: true })).rows);
    }
    for (const row of [...quiet, ...busy]) {
      expect(row.status).toBe('ok');
      // The host's counters are read: others' CPU time and its share are numbers (the share of 2 CPUs stays below 100).
      expect(Number.isFinite(Number(row.host_other_cpu_ms))).toBe(true);
      expect(Number(row.interference_pct)).toBeLessThan(100);
    }
    // The share of its allowance the rest of the host left the run: the busy loops take about half of it (a third
    // without root), on a quiet host and on a host already busy alike. The interference share itself tops out at
    // 100, so on a busy host it can only rise by part of what was left.
    const left = (rows) => median(rows.map((row) => 100 - Number(row.interference_pct)));
    expect(left(busy)).toBeLessThan(0.75 * left(quiet));
    const share = (rows) => median(rows.map((row) => Number(row.interference_pct)));
    expect(share(busy)).toBeGreaterThan(share(quiet));
  });

  test('with the threshold between the two, a run beside busy loops is disturbed, kept, and re-run once', async () => {
    const threshold = Math.round(
      (median(quiet.map((row) => Number(row.interference_pct))) +
        median(busy.map((row) => Number(row.interference_pct)))) /
        2,
    );
    const dir = mkdtempSync(join(os.tmpdir(), 'lab-interference-cfg-'));
    const config = join(dir, 'experiments.yml');
    writeFileSync(
      config,
      readFileSync(CONFIG, 'utf8').replace('max_reruns: 0', `max_reruns: 1\n    disturbed_above: ${threshold}`),
    );
    const { outDir, rows } = await runMatrix(config, { busy: true });
    const sorted = [...rows].sort((a, b) => Number(a.repetition) - Number(b.repetition));
    expect(sorted.map((row) => [row.repetition, row.rerun_of])).toEqual([
      ['1', ''],
      ['2', '1'],
    ]);
    expect(sorted[0].disturbed).toBe('true');
    expect(Number(sorted[0].interference_pct)).toBeGreaterThan(threshold);
    const info = JSON.parse(readFileSync(join(outDir, 'run.json'), 'utf8'));
    expect(info.summary).toMatchObject({ total: 2, done: 2, reruns: 1 });
    expect(readFileSync(join(outDir, 'report.md'), 'utf8')).toMatch(
      new RegExp(
        `- Disturbed: ${info.summary.disturbed} run\\(s\\) \\(interference above ${threshold}%\\): left out of the statistics, 1 re-run`,
      ),
    );
  });

  test('no container of the project is left behind', async () => {
    expect(await listOwnContainers(docker, owners)).toEqual([]);
  });
});
