// The core, end to end, on the real engine: experiments.yml → containers with CPU limits → CSV.
import { parse } from 'csv-parse/sync';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCpuList } from '../../images/workload/lib/cpuset.js';
import { connectTestEngine, createOwnRunner, listOwnContainers, watchCreated } from '../support/docker-helpers.js';

const { run: runCli, owners } = createOwnRunner();

const LIMITS = fileURLToPath(new URL('../fixtures/integration/limits.yml', import.meta.url));

describe('npm run matrix on the real engine', () => {
  let docker;
  let outDir;
  let result;
  let planned;
  let rows;
  let tasks;
  let runInfo;
  let created;

  beforeAll(async () => {
    docker = await connectTestEngine();
    created = await watchCreated(docker, owners);
    outDir = mkdtempSync(join(tmpdir(), 'lab-it-'));
    planned = await runCli(['plan', '--config', LIMITS, '--json']);
    result = await runCli(['run', '--config', LIMITS, '--out', outDir]);
    rows = parse(readFileSync(join(outDir, 'runs.csv'), 'utf8'), { columns: true, cast: false });
    tasks = parse(readFileSync(join(outDir, 'tasks.csv'), 'utf8'), { columns: true });
    runInfo = JSON.parse(readFileSync(join(outDir, 'run.json'), 'utf8'));
  });

  const row = (values) => rows.find((r) => Object.entries(values).every(([key, value]) => r[key] === String(value)));

  test('exits 0 with every run ok', () => {
    expect(result.all).toMatch(/4 ok, 0 not ok, of 4/);
    expect(result.exitCode).toBe(0);
    expect(rows.map((r) => `${r.status}:${r.error}`)).toEqual(['ok:', 'ok:', 'ok:', 'ok:']);
  });

  test('(a) the row count equals the plan', () => {
    expect(planned.exitCode).toBe(0);
    const { count, experiments } = JSON.parse(planned.stdout);
    expect([count, experiments[0].runs.length]).toEqual([4, 4]);
    expect(rows).toHaveLength(count);
    expect(runInfo.planned_runs).toBe(rows.length);
  });

  test('one container per run, seen by the engine (which also proves the event count used below works)', async () => {
    expect(await created.count()).toBe(rows.length);
  });

  test('(b) the container sees the quota and the cpuset it was given', () => {
    for (const r of rows) {
      expect(Number(r.seen_cpu_quota)).toBeCloseTo(Number(r.cpus), 5);
      if (r.cpuset) expect(parseCpuList(r.seen_cpuset)).toEqual(parseCpuList(r.cpuset));
    }
    // availableParallelism() honours the cpuset but ignores the quota: the finding users need.
    expect(Number(row({ cpus: 1, cpuset: '0' }).seen_available_parallelism)).toBe(1);
    expect(Number(row({ cpus: 0.5 }).seen_available_parallelism)).toBeGreaterThanOrEqual(1);
    expect(Number(row({ cpus: 0.5 }).seen_uv_threadpool_size)).toBe(4);
  });

  test('(c) with 4 pbkdf2 tasks and a pool of 4, cpus 2 is clearly faster than cpus 0.5', () => {
    const slow = Number(row({ cpus: 0.5, workload: 'pbkdf2' }).wall_ms);
    const fast = Number(row({ cpus: 2, workload: 'pbkdf2' }).wall_ms);
    // Ideal ratio 4 (a quarter of the CPU time per second); 2 leaves room for a noisy shared host.
    expect(slow / fast).toBeGreaterThan(2);
    expect(Number(row({ cpus: 0.5, workload: 'pbkdf2' }).throttled_periods)).toBeGreaterThan(0);
  });

  test('rows carry what the process got: threads, CPU time, memory, versions, timestamps', () => {
    for (const r of rows) {
      expect(Number(r.peak_threads)).toBeGreaterThanOrEqual(5);
      expect(Number(r.cpu_user_ms)).toBeGreaterThan(0);
      expect(Number(r.peak_rss_mb)).toBeGreaterThan(10);
      expect(r.node_version).toMatch(/^v\d+\./);
      expect(Number(r.container_ms)).toBeGreaterThan(Number(r.wall_ms));
      expect(new Date(r.started_at).toISOString()).toBe(r.started_at);
    }
  });

  test('tasks.csv has every task of every run', () => {
    expect(tasks).toHaveLength(16);
    for (const r of rows) {
      const own = tasks.filter((t) => t.cell === r.cell && t.repetition === r.repetition);
      expect(own.map((t) => Number(t.task)).sort()).toEqual([0, 1, 2, 3]);
      expect(Math.max(...own.map((t) => Number(t.end_ms)))).toBeGreaterThan(0);
    }
  });

  test('(d) no container of the project is left behind', async () => {
    expect(await listOwnContainers(docker, owners)).toEqual([]);
  });
});

describe('the node axis', () => {
  test('every Node.js major gets its own locally built image and runs both CPU workloads', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'lab-node-'));
    const result = await runCli([
      'run',
      '--config',
      fileURLToPath(new URL('../fixtures/integration/node-versions.yml', import.meta.url)),
      '--out',
      outDir,
    ]);
    const rows = parse(readFileSync(join(outDir, 'runs.csv'), 'utf8'), { columns: true });
    expect(rows.map((r) => `${r.workload} ${r.node} ${r.status} ${r.error}`).sort()).toEqual([
      'argon2 20 ok ',
      'argon2 26 ok ',
      'pbkdf2 20 ok ',
      'pbkdf2 26 ok ',
    ]);
    for (const r of rows) expect(r.node_version).toMatch(new RegExp(`^v${r.node}\\.`));
    expect(result.exitCode).toBe(0);
  });
});

describe('bad input creates no container', () => {
  test('an invalid config exits 2 with file:line:column and creates no container', async () => {
    const docker = await connectTestEngine();
    const dir = mkdtempSync(join(tmpdir(), 'lab-bad-'));
    const file = join(dir, 'experiments.yml');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      file,
      'experiments:\n  bad:\n    matrix:\n      workload: [pbkdf2]\n      uv_threadpool_size: [4, 2000]\n',
    );
    const created = await watchCreated(docker, owners);
    const result = await runCli(['run', '--config', file, '--out', join(dir, 'out')]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`${file}:5:`);
    expect(result.stderr).toMatch(/uv_threadpool_size/);
    expect(await created.count()).toBe(0);
  });
});
