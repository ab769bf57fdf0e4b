// The keys that cut noise at the source, end to end on the real engine: a matrix with `round_order: abba`,
// `speed_probe: true` and `batches:` gives ok rows with the probe's and the batches' columns, tasks.csv keeps every
// batch, and a budget's cells run back to back, mirrored in the next round.
import { parse } from 'csv-parse/sync';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createOwnRunner } from '../support/docker-helpers.js';

const { run: runCli } = createOwnRunner();
const NOISE = fileURLToPath(new URL('../fixtures/integration/noise.yml', import.meta.url));

describe('round_order, speed_probe and batches on the real engine', () => {
  let result;
  let rows;
  let tasks;

  beforeAll(async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'lab-it-noise-'));
    result = await runCli(['run', '--config', NOISE, '--out', outDir, '--seed', '5']);
    rows = parse(readFileSync(join(outDir, 'runs.csv'), 'utf8'), { columns: true });
    tasks = parse(readFileSync(join(outDir, 'tasks.csv'), 'utf8'), { columns: true });
  });

  test('every run is ok and carries the probe and its batches', () => {
    expect(result.exitCode).toBe(0);
    expect(rows).toHaveLength(10);
    for (const row of rows) {
      expect(`${row.status}:${row.error}`).toBe('ok:');
      expect(Number(row.speed_probe_ms)).toBeGreaterThan(0);
      expect(Number(row.speed_probe_cpu_ms)).toBeGreaterThan(0);
      expect(Number(row.batches)).toBe(3);
      expect(Number(row.wall_ms)).toBeGreaterThan(0);
      expect(Number(row.cpu_total_ms)).toBeGreaterThan(0);
    }
  });

  test("tasks.csv holds every batch of every run, and wall_ms is the median of the measured batches' walls", () => {
    for (const row of rows) {
      const own = tasks.filter((task) => task.cell === row.cell && task.repetition === row.repetition);
      expect([...new Set(own.map((task) => task.batch))].sort()).toEqual(['0', '1', '2', '3']);
      const walls = ['1', '2', '3'].map((batch) => {
        const pass = own.filter((task) => task.batch === batch);
        return (
          Math.max(...pass.map((task) => Number(task.end_ms))) - Math.min(...pass.map((task) => Number(task.start_ms)))
        );
      });
      expect(Number(row.wall_ms)).toBeCloseTo(walls.sort((a, b) => a - b)[1], 1);
    }
  });

  test("abba: each round runs a budget's cells back to back, the second round in the mirror order of the first", () => {
    const byStart = [...rows].sort((a, b) => Date.parse(a.started_at) - Date.parse(b.started_at));
    const [first, second] = ['1', '2'].map((round) => byStart.filter((row) => row.repetition === round));
    expect(second.map((row) => row.cell)).toEqual(first.map((row) => row.cell).reverse());
    const budget = (row) => `${row.workload} ${row.cpus}`;
    const changes = first.filter((row, index) => index > 0 && budget(row) !== budget(first[index - 1])).length;
    expect(changes).toBe(2);
  });
});
