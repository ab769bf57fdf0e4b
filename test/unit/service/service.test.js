// runner/service/'s pure parts: the serving container, the knobs a syntax tree shows, the start command and port,
// the request chosen from a route table, and a handler's reach to the pool calls.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chooseServingContainers } from '../../../runner/service/deployment.js';
import { findListenAtLoad, findListenPort, findStartFile } from '../../../runner/service/entry-point.js';
import { findKnobs } from '../../../runner/service/knobs.js';
import { chooseServiceRequest, readService } from '../../../runner/service/read-service.js';
import { chooseRequest, readGivenRequest } from '../../../runner/service/request.js';
import { parseUserModule } from '../../../runner/user-code/module-exports.js';

const container = (name, extra = {}) => ({
  file: 'k8s/d.yaml',
  format: 'kubernetes',
  object: 'Deployment/login',
  container: name,
  role: 'container',
  ports: [],
  labels: { app: 'login' },
  cpu: null,
  memory: null,
  ...extra,
});
const cpu = (cpus) => ({ cpus, field: 'limits.cpu', written: `${cpus * 1000}m`, line: 1 });

test('the container a Service sends to is the budget; the sidecar and the init container are left out, with why', () => {
  const chosen = chooseServingContainers({
    files: ['k8s/d.yaml'],
    sources: [
      container('login', { ports: [{ port: 3000, name: 'http' }], cpu: cpu(1) }),
      container('log-shipper', { cpu: cpu(0.1) }),
      container('migrate', { role: 'init', cpu: cpu(2) }),
      {
        file: 'compose.yaml',
        format: 'compose',
        object: 'service login',
        service: 'login',
        builds: true,
        cpu: cpu(0.5),
      },
    ],
    services: [{ object: 'Service/login', selector: { app: 'login' }, targets: ['http'] }],
  });
  expect(chosen.budgets.map((budget) => budget.cpus)).toEqual([1]);
  expect(chosen.leftOut.map(({ source, why }) => [source.container, why.split(':')[0]])).toEqual([
    ['migrate', 'an init container'],
    ['log-shipper', 'a sidecar'],
  ]);
  expect(chosen.skipped.files).toEqual(['compose.yaml']);
  expect(chosen.skipped.flag).toBe('--from compose.yaml --from k8s/d.yaml');
});

test('two containers and no Service: exit 2 asking for --container; named, that one', () => {
  const deployment = {
    files: [],
    sources: [container('a', { cpu: cpu(1) }), container('b', { cpu: cpu(2) })],
    services: [],
  };
  expect(() => chooseServingContainers(deployment)).toThrow(/which one serves your app is not known/);
  expect(chooseServingContainers(deployment, { container: 'b' }).budgets.map((budget) => budget.cpus)).toEqual([2]);
  expect(() => chooseServingContainers(deployment, { container: 'c' })).toThrow(/no container or Compose service/);
});

const tree = (text) => {
  const dir = mkdtempSync(join(tmpdir(), 'service-'));
  writeFileSync(join(dir, 'x.mjs'), text);
  return { file: join(dir, 'x.mjs'), ast: parseUserModule(join(dir, 'x.mjs'), { root: dir }).ast };
};

test('knobs: the variables read and set, node:cluster forks with their count, a pool sized from a variable', () => {
  const knobs = findKnobs([
    tree(`import cluster from 'node:cluster';
import Piscina from 'piscina';
const n = Number(process.env.WEB_CONCURRENCY ?? 1);
process.env.UV_THREADPOOL_SIZE = '8';
const { PORT } = process.env;
if (cluster.isPrimary) for (let i = 0; i < n; i++) cluster.fork();
export const pool = new Piscina({ filename: 'w.js', maxThreads: Number(process.env.POOL_SIZE) });
`),
  ]);
  expect(knobs.cluster).toMatchObject({ line: 6, count: 'WEB_CONCURRENCY' });
  // Unset, the code forks one: the setting it runs today, with where the code says so.
  expect(knobs.cluster.today).toEqual({ value: '1', file: expect.any(String), line: 3 });
  expect(knobs.env.map(({ fallback }) => fallback)).toEqual(['1', null, null, null]);
  expect(knobs.pools).toMatchObject([{ name: 'POOL_SIZE', line: 7 }]);
  expect(knobs.env.map(({ name, sets }) => [name, sets])).toEqual([
    ['WEB_CONCURRENCY', false],
    ['UV_THREADPOOL_SIZE', true],
    ['PORT', false],
    ['POOL_SIZE', false],
  ]);
});

test('the start file, the port a .listen() call says, a listen() at load', () => {
  expect(findStartFile('NODE_ENV=production node --enable-source-maps src/server.js')).toBe('src/server.js');
  expect(findStartFile('npm run serve')).toBeNull();
  const server = tree(`const port = Number(process.env.PORT ?? 8080);\nawait app.listen({ port, host: '0.0.0.0' });\n`);
  expect(findListenPort([server])).toMatchObject({ port: 8080, env: 'PORT', line: 2 });
  expect(findListenAtLoad(server.ast)).toEqual({ line: 2 });
  expect(findListenAtLoad(tree('export function start() { app.listen(3000); }\n').ast)).toBeNull();
});

test('the request: --request, else the route reaching the pool calls, else the only one; else exit 2 with the routes', () => {
  const routes = [
    { method: 'GET', path: '/healthz', reached: [] },
    {
      method: 'POST',
      path: '/login',
      reached: [{}],
      bodySchema: { type: 'object', required: ['user'], properties: { user: { type: 'string', examples: ['ada'] } } },
    },
  ];
  const table = { framework: 'fastify', routes };
  expect(chooseRequest(table, null)).toMatchObject({
    method: 'POST',
    path: '/login',
    body: '{"user":"ada"}',
    headers: { 'content-type': 'application/json' },
    others: [routes[0]],
  });
  const given = readGivenRequest({ request: 'get /healthz', headers: ['X-A: 1'] });
  expect(chooseRequest(table, given)).toMatchObject({ method: 'GET', path: '/healthz', headers: { 'x-a': '1' } });
  expect(() => chooseRequest(table, readGivenRequest({ request: 'POST /signin' }))).toThrow(
    /your app serves no POST \/signin/,
  );
  const unknown = { framework: 'express', routes: routes.map((route) => ({ ...route, reached: [] })) };
  expect(() => chooseRequest(unknown, null)).toThrow(
    expect.objectContaining({ hint: expect.stringMatching(/--request "GET \/healthz"/) }),
  );
  expect(chooseRequest({ framework: null, routes: [] }, null)).toMatchObject({ method: 'GET', path: '/' });
  expect(() => readGivenRequest({ request: 'login' })).toThrow(/is not METHOD \/path/);
});

test("a handler reaches a pool call through a promisified constant and another file's export", () => {
  const dir = mkdtempSync(join(tmpdir(), 'reach-'));
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'package.json'), '{"type": "module"}\n');
  writeFileSync(
    join(dir, 'src', 'hash.js'),
    "import crypto from 'node:crypto';\nimport { promisify } from 'node:util';\nconst pbkdf2 = promisify(crypto.pbkdf2);\nexport async function hash(pw) {\n  return pbkdf2(pw, 's', 1, 32, 'sha256');\n}\n",
  );
  writeFileSync(
    join(dir, 'src', 'app.js'),
    "import { hash } from './hash.js';\nexport const login = async (req) => hash(req.body.pw);\nexport const health = () => 'ok';\n",
  );
  const service = readService({
    form: 'app',
    folder: dir,
    module: { absolute: join(dir, 'src', 'app.js'), root: dir },
    readDeployment: false,
  });
  expect(service.pool.calls.map((call) => `${call.line} ${call.api}`)).toEqual(['3 crypto.pbkdf2']);
  const table = {
    framework: 'express',
    routes: [
      { method: 'GET', path: '/health', handlers: [{ file: 'src/app.js', line: 3, column: 23 }] },
      { method: 'POST', path: '/login', handlers: [{ file: 'src/app.js', line: 2, column: 28 }] },
    ],
  };
  const chosen = chooseServiceRequest(service, table, null, dir);
  expect([chosen.method, chosen.path, chosen.route.reached.map((call) => call.api)]).toEqual([
    'POST',
    '/login',
    ['crypto.pbkdf2'],
  ]);
});

test("an axis init's production: record does not name was added by hand: no production twin in this service", async () => {
  const { findProductionTwin } = await import('../../../runner/domain/axes.js');
  const production = { uv_threadpool_size: "UV_THREADPOOL_SIZE in the service's environment" };
  expect(findProductionTwin('uv_threadpool_size', 2, 'app', production)).toMatchObject({ twin: true, byHand: false });
  expect(findProductionTwin('cluster', 2, 'app', production)).toMatchObject({ twin: false, byHand: true, where: null });
  // No record (a file written by hand for no particular service): the lab's shape decides, as before.
  expect(findProductionTwin('cluster', 2, 'app', undefined)).toMatchObject({ twin: true, byHand: false });
  expect(findProductionTwin('workers', 2, 'app', undefined)).toMatchObject({ twin: false, byHand: false });
});
