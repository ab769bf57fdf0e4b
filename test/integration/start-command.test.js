// Your own entry point on the real engine: examples/own-service's start command run in the server container with the
// cell's environment, loaded once it answers; and a service that never answers the port it was told.
import { parse } from 'csv-parse/sync';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectTestEngine, createOwnRunner, listOwnContainers } from '../support/docker-helpers.js';

const { run: runCli, owners } = createOwnRunner();
const EXAMPLE = fileURLToPath(new URL('../../examples/own-service/experiments.yml', import.meta.url));
const NEVER_READY = fileURLToPath(new URL('../fixtures/start-command/never-ready.yml', import.meta.url));

let docker;
const runMatrix = async (config) => {
  const outDir = mkdtempSync(join(tmpdir(), 'lab-start-'));
  const result = await runCli(['run', '--config', config, '--out', outDir, '--keep-disturbed']);
  return { result, rows: parse(readFileSync(join(outDir, 'runs.csv'), 'utf8'), { columns: true }) };
};

beforeAll(async () => {
  docker = await connectTestEngine();
});

test('`node src/server.js` under a pool axis and its own WEB_CONCURRENCY: every run ok, the env reached it', async () => {
  const { result, rows } = await runMatrix(EXAMPLE);
  expect(result.exitCode).toBe(0);
  expect(rows).toHaveLength(4);
  for (const row of rows) {
    expect(row.status).toBe('ok');
    expect(Number(row.requests_per_sec)).toBeGreaterThan(0);
    expect([row.errors, row.non2xx, row.timeouts]).toEqual(['0', '0', '0']);
    // Each of its own processes started a libuv pool of UV_THREADPOOL_SIZE threads: the cell's env reached them all.
    expect(Number(row.pool_threads)).toBe(Number(row.uv_threadpool_size) * Number(row.WEB_CONCURRENCY));
    // Measured from the container: CPU time, memory; nothing of an event loop the lab does not run.
    expect(Number(row.cpu_total_ms)).toBeGreaterThan(0);
    expect(Number(row.cgroup_memory_peak_mb)).toBeGreaterThan(10);
    expect(row.event_loop_delay_mean_ms).toBe('');
  }
});

test('a service that never answers its port stops the matrix at the preflight, saying what it waited for and for how long', async () => {
  const outDir = mkdtempSync(join(tmpdir(), 'lab-start-'));
  const result = await runCli(['run', '--config', NEVER_READY, '--out', outDir, '--keep-disturbed']);
  expect(result.exitCode).toBe(2);
  expect(result.stderr).toMatch(
    /preflight of `node src\/server\.js`: your start command `node src\/server\.js` did not answer within 2 s: 127\.0\.0\.1:4000 accepting a connection \(last: ECONNREFUSED\)/,
  );
  expect(existsSync(join(outDir, 'runs.csv'))).toBe(false);
});

test('nothing is left behind: the containers, and with them the service processes, are gone', async () => {
  expect(owners.size).toBeGreaterThan(0);
  expect(await listOwnContainers(docker, owners)).toEqual([]);
});
