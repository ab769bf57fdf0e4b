// Your service, answered: the login services of examples/ (Fastify, Express, a start command), installed from the
// registry into a copy, then `init` with no other flag on the real engine: the file has only the serving container's
// budget and memory, the POST route the pool calls are reached from, and axes with production twins; `plan` shows the
// request and the sources; a request the app does not serve stops `run` before any measured run (exit 2). Only this
// test's containers are counted.
import { chmodSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { connectTestEngine, createOwnRunner, listOwnContainers, watchCreated } from '../support/docker-helpers.js';

const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));
const { run: runCli, owners } = createOwnRunner();

let docker;
let root;
const services = {};

beforeAll(async () => {
  docker = await connectTestEngine();
  root = mkdtempSync(join(tmpdir(), 'lab-service-init-'));
  for (const name of ['fastify', 'express', 'start']) {
    const dir = join(root, name);
    cpSync(join(EXAMPLES, `login-service-${name}`), dir, { recursive: true });
    await execa('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir });
    services[name] = dir;
  }
  // mkdtemp makes it 0700: the containers' user (1000) must read the mounted folders.
  chmodSync(root, 0o755);
}, 300_000);

afterAll(async () => {
  expect(await listOwnContainers(docker, owners)).toEqual([]);
  if (root) rmSync(root, { recursive: true, force: true });
});

describe.each([
  ['fastify', ['--http-app', 'src/app.js'], /^ {10}method: POST .*a Fastify route \(src\/app\.js:\d+\)/m],
  ['express', ['--http-app', 'src/app.js'], /^ {10}method: POST .*an Express route \(src\/app\.js:\d+\)/m],
  ['start', ['--start', 'node src/server.js'], /^ {10}method: POST .*a Fastify route \(src\/app\.js:\d+\)/m],
])('%s: init with no other flag', (name, args, route) => {
  let init;
  let written;
  beforeAll(async () => {
    init = await runCli(['init', ...args], { cwd: services[name] });
    written = readFileSync(join(services[name], 'experiments.yml'), 'utf8');
  });

  test('writes the serving container budget and memory, the POST route, only deployable axes', () => {
    expect([init.exitCode, init.stderr]).toEqual([0, expect.stringContaining('left out compose.yaml')]);
    expect(init.stderr).toContain('init --from compose.yaml --from k8s/deployment.yaml');
    expect(written).toMatch(
      /^ {8}- 1 +# k8s\/deployment\.yaml: Deployment\/login, container login \(limits\.cpu 1000m/m,
    );
    expect(written).toMatch(/^ {4}memory: 512m +# the memory limit of the container that serves your app/m);
    expect(written).toMatch(/^# Left out: .*container log-shipper .*: a sidecar/m);
    expect(written).toMatch(/^# Left out: .*container migrate .*: an init container/m);
    expect(written).toMatch(route);
    expect(written).toMatch(/^ {10}path: \/login /m);
    expect(written).toMatch(/its other routes, not measured: GET \/healthz/);
    expect(written).not.toMatch(/^ {6}workers:/m);
    expect(written).not.toMatch(/0\.1|0\.5|256m|64m/);
    expect(written).toMatch(/^ {6}uv_threadpool_size: \[1, 2, 4\]/m);
  });

  test('plan shows the request and where production sets each knob', async () => {
    const plan = await runCli(['plan'], { cwd: services[name] });
    expect(plan.exitCode).toBe(0);
    expect(plan.stdout).toMatch(/request: POST \/login .*expecting 200; sent once before the first run/);
    expect(plan.stdout).toMatch(/production: cpus ← 1: k8s\/deployment\.yaml: Deployment\/login, container login/);
    expect(plan.stdout).toMatch(/production: uv_threadpool_size ← UV_THREADPOOL_SIZE/);
    expect(plan.stdout).not.toContain('added by hand');
  });
});

test('a request the app does not serve stops run before any measured run, exit 2, naming request and status', async () => {
  const dir = services.fastify;
  const file = join(dir, 'experiments.yml');
  writeFileSync(file, readFileSync(file, 'utf8').replace(/^( {10}path: )\/login/m, '$1/signin'));
  const created = await watchCreated(docker, owners);
  const run = await runCli(['run'], { cwd: dir, all: true });
  expect(run.exitCode).toBe(2);
  expect(run.stderr).toMatch(/POST \/signin answered 404, not the 200 expected: .*Route POST:\/signin not found/);
  expect(run.stderr).toContain('no run was measured');
  // Only the preflight's containers: the CPU probe is not counted, and no run's server or loader was created.
  expect(await created.count()).toBe(1);
});

test('init refuses a module that listens by itself and a missing export, naming the flag; nothing written', async () => {
  const dir = services.express;
  rmSync(join(dir, 'experiments.yml'));
  const listens = await runCli(['init', '--http-app', 'src/server.js'], { cwd: dir });
  expect(listens.exitCode).toBe(2);
  expect(listens.stderr).toContain('it calls listen() itself when imported');
  expect(listens.stderr).toContain('init --start "node src/server.js"');
  const missing = await runCli(['init', '--http-app', 'src/app.js', '--export', 'nope'], { cwd: dir });
  expect(missing.exitCode).toBe(2);
  expect(missing.stderr).toContain('--export NAME');
  expect(() => readFileSync(join(dir, 'experiments.yml'))).toThrow();
});
