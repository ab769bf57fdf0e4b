// The shape of an http app's export, told apart without importing any framework: each shape as a small stand-in
// with the methods the lab reads (the real Fastify, Express, Koa and hapi: test/integration/frameworks.test.js).
import http from 'node:http';
import { buildUserServer } from '../../../../images/workload/http/app-shape.js';

const APP = { file: '/lab/user/src/app.js', export: 'default' };
const calls = [];
const fastifyLike = () => {
  const server = http.createServer();
  return { server, register() {}, ready: async () => calls.push('ready') };
};
const hapiLike = () => ({
  listener: http.createServer(),
  route() {},
  initialize: async () => calls.push('initialize'),
});
const koaLike = () => ({ use() {}, callback: () => (_req, res) => res.end('koa') });

async function shapeOf(exported) {
  const { server, shape } = await buildUserServer(exported, APP);
  expect(server).toBeInstanceOf(http.Server);
  expect(server.listening).toBe(false);
  return shape;
}

beforeEach(() => calls.splice(0));

test('a function of two or more parameters is a handler; of fewer, a factory, called and awaited', async () => {
  expect(await shapeOf((req, res) => res.end())).toBe('a (req, res) handler');
  expect(await shapeOf(function express(_req, _res, _next) {})).toBe('a (req, res) handler');
  expect(await shapeOf(() => http.createServer())).toBe('a factory returning an http.Server');
  expect(await shapeOf(async () => (req, res) => res.end())).toBe('a factory returning a request listener');
});

test('Fastify is made ready, hapi initialized, before their server is taken; Koa is served by its callback()', async () => {
  expect(await shapeOf(() => fastifyLike())).toBe('a factory returning a Fastify app');
  expect(await shapeOf(async () => hapiLike())).toBe('a factory returning a Hapi server');
  expect(calls).toEqual(['ready', 'initialize']);
  expect(await shapeOf(koaLike())).toBe('a Koa app');
  expect(await shapeOf(Promise.resolve(fastifyLike()))).toBe('a Fastify app');
  expect(await shapeOf(http.createServer())).toBe('an http.Server');
});

test('a server already listening is refused with the fix', async () => {
  const server = http.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await expect(buildUserServer(() => server, APP)).rejects.toThrow(
      'export `default` of src/app.js gave a server that is already listening: return it without calling listen(), the lab listens itself',
    );
  } finally {
    server.close();
  }
});

test('what no server can be made of says what it is and the shapes that work', async () => {
  const refusal = (exported) =>
    buildUserServer(exported, APP).then(
      () => null,
      (error) => error,
    );
  const object = await refusal({ port: 3000 });
  expect(object.code).toBe('ERR_EXPORT_INVALID');
  expect(object.message).toBe(
    'export `default` of src/app.js is an object with keys port, which the lab cannot serve: export a (req, res) handler (an Express app is one), an http.Server not listening, a Fastify instance, a Koa app or a Hapi server, or a function that returns (or resolves to) one of them.',
  );
  expect((await refusal(() => undefined)).message).toMatch(
    /^export `default` of src\/app\.js takes fewer than two parameters, so it was called as a factory, but it returned undefined, which the lab cannot serve/,
  );
  expect((await refusal({ fetch() {} })).message).toMatch(/a Fetch-API app \(Hono, …\) needs a Node adapter/);
});
