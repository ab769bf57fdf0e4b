// Real Fastify, Express, Koa and hapi apps, installed from the npm registry into a fixture service
// (test/fixtures/frameworks: the versions pinned in its package.json; node_modules is not kept), each built by
// the lab from its export's shape and served in 2 cluster processes and in 2 worker threads.
import { execa } from 'execa';
import { parse } from 'csv-parse/sync';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectTestEngine, createOwnRunner, listOwnContainers } from '../support/docker-helpers.js';

const { run: runCli, owners } = createOwnRunner();
const SERVICE = fileURLToPath(new URL('../fixtures/frameworks/', import.meta.url));
const FRAMEWORKS = ['fastify', 'express', 'koa', 'hapi'];

let docker;
beforeAll(async () => {
  docker = await connectTestEngine();
  await execa('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: SERVICE });
});

afterAll(async () => {
  expect(owners.size).toBeGreaterThan(0);
  expect(await listOwnContainers(docker, owners)).toEqual([]);
});

describe('each framework under cluster and workers', () => {
  let result;
  let outDir;
  beforeAll(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'lab-frameworks-'));
    result = await runCli(['run', '--config', join(SERVICE, 'experiments.yml'), '--out', outDir, '--keep-disturbed']);
  });

  test('every run is ok: requests answered with the expected status, none other', () => {
    expect(result.exitCode).toBe(0);
    for (const framework of FRAMEWORKS) {
      const rows = parse(readFileSync(join(outDir, framework, 'runs.csv'), 'utf8'), { columns: true });
      expect(
        rows.map((row) => `${framework} cluster=${row.cluster} workers=${row.workers} ${row.status}`).sort(),
      ).toEqual([`${framework} cluster=0 workers=2 ok`, `${framework} cluster=2 workers=0 ok`]);
      for (const row of rows) {
        expect(Number(row.requests_per_sec)).toBeGreaterThan(0);
        expect([row.errors, row.non2xx, row.timeouts]).toEqual(['0', '0', '0']);
      }
    }
  });

  test("the preflight says which shape it found in each app's export", () => {
    expect(result.all).toMatch(/fastify-app\.js export `default`: a factory returning a Fastify app/);
    expect(result.all).toMatch(/express-app\.js export `default`: a \(req, res\) handler/);
    expect(result.all).toMatch(/koa-app\.js export `default`: a Koa app/);
    expect(result.all).toMatch(/hapi-app\.js export `createServer`: a factory returning a Hapi server/);
  });
});

test('a factory that listens itself: exit 2 before the first run, at `export`, with the fix', async () => {
  const outDir = mkdtempSync(join(tmpdir(), 'lab-frameworks-fail-'));
  const result = await runCli(['run', '--config', join(SERVICE, 'failures.yml'), '--out', outDir]);
  expect(result.exitCode).toBe(2);
  expect(result.all).toMatch(
    /failures\.yml:\d+:\d+: experiments\.already-listening\.params\.http\.app\.export: preflight of \S*listening-app\.js: export `default` of listening-app\.js gave a server that is already listening: return it without calling listen\(\)/,
  );
});
