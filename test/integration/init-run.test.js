// What init writes for a service as production runs it, run as written on the real engine: a handler calling
// crypto.pbkdf2, a Deployment with a CPU limit and a memory limit. The file gets the Deployment's budget, its memory
// and a pool axis; shrunk to one repetition of a short load (the only edit), every run of it is ok, with the budget
// as the container's quota and the memory limit as its limit. Only this test's containers are counted.
import { parse } from 'csv-parse/sync';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectTestEngine, createOwnRunner, listOwnContainers, watchCreated } from '../support/docker-helpers.js';

const { run: runCli, owners } = createOwnRunner();

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: login
spec:
  template:
    spec:
      containers:
        - name: login
          resources:
            limits: {cpu: 1000m, memory: 256Mi}
`;
const HANDLER = `import { pbkdf2 } from 'node:crypto';

export default function login(req, res) {
  pbkdf2('correct horse', 'salt', 1000, 32, 'sha256', (error, key) => res.end(key.toString('hex')));
}
`;

let docker;
let service;
beforeAll(async () => {
  docker = await connectTestEngine();
  service = mkdtempSync(join(tmpdir(), 'lab-init-run-'));
  // mkdtemp makes it 0700: the containers' user (1000) must read the mounted folder, as a person's service folder.
  chmodSync(service, 0o755);
  mkdirSync(join(service, 'src'));
  mkdirSync(join(service, 'k8s'));
  writeFileSync(join(service, 'package.json'), '{"name": "login", "type": "module"}\n');
  writeFileSync(join(service, 'src', 'app.js'), HANDLER);
  writeFileSync(join(service, 'k8s', 'deployment.yaml'), DEPLOYMENT);
});

afterAll(async () => {
  expect(await listOwnContainers(docker, owners)).toEqual([]);
  if (service) rmSync(service, { recursive: true, force: true });
});

test('init from the Deployment, then run: every run ok, at the budget and memory limit init wrote', async () => {
  const init = await runCli(['init', '--http-app', 'src/app.js'], { cwd: service });
  expect(init.exitCode).toBe(0);
  const written = readFileSync(join(service, 'experiments.yml'), 'utf8');
  expect(written).toMatch(
    /^ {4}memory: 256m +# the memory limit of the container that serves your app, k8s\/deployment\.yaml: Deployment\/login, container login \(limits\.memory 256Mi, line 11\)/m,
  );
  expect(written).toMatch(
    /^ {8}- 1 +# k8s\/deployment\.yaml: Deployment\/login, container login \(limits\.cpu 1000m, line 11\)$/m,
  );
  // A (req, res) handler answers every path: the request is GET /, sent once by init before it wrote the file.
  expect(written).toMatch(/^ {10}method: GET +# .*read from your built app, your handler answers every path/m);
  // No process or thread axis: the service's entry point forks none, and its Deployment sets no replicas.
  expect(written).not.toMatch(/^ {6}(cluster|workers):/m);
  expect(written).toMatch(/^ {6}uv_threadpool_size: \[1, 2, 4\] +# .*\n +# +src\/app\.js:4 crypto\.pbkdf2$/m);
  // One repetition of a short load, every cell once (search: grid): the only changes to what init wrote.
  expect(written).toMatch(/repetitions: \d+ /);
  writeFileSync(
    join(service, 'experiments.yml'),
    written
      .replace(/repetitions: \d+ /, 'repetitions: 1 \n    search: grid')
      .replace(/duration: 10 /, 'duration: 1  ')
      .replace(/warmup: 3 /, 'warmup: 1 ')
      .replace(/connections: 10 /, 'connections: 2  '),
  );
  const created = await watchCreated(docker, owners);
  const run = await runCli(['run', '--keep-disturbed'], { cwd: service, all: true });
  expect([run.exitCode, run.exitCode === 0 ? '' : run.all]).toEqual([0, '']);
  const [folder] = readdirSync(join(service, 'results'));
  const rows = parse(readFileSync(join(service, 'results', folder, 'runs.csv'), 'utf8'), { columns: true });
  // 1 budget × pool 1, 2, 4.
  expect(rows).toHaveLength(3);
  expect(rows.map((row) => row.status)).toEqual(Array(3).fill('ok'));
  expect([...new Set(rows.map((row) => row.cpus))]).toEqual(['1']);
  expect([...new Set(rows.map((row) => row.seen_cpu_quota))]).toEqual(['1']);
  expect(new Set(rows.map((row) => row.uv_threadpool_size))).toEqual(new Set(['1', '2', '4']));
  expect(rows.every((row) => Number(row.requests_per_sec) > 0)).toBe(true);
  const info = JSON.parse(readFileSync(join(service, 'results', folder, 'run.json'), 'utf8'));
  expect(info.config.memory).toBe('256m');
  expect(await created.count()).toBeGreaterThanOrEqual(3);
});
