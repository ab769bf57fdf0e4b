// The app: POST /login derives a key from the password with pbkdf2 (on libuv's pool, through promisify), GET /healthz
// answers at once. A factory that returns the Fastify instance, not listening: src/server.js listens.
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import Fastify from 'fastify';

const pbkdf2 = promisify(crypto.pbkdf2);
const ITERATIONS = 100_000;

const LOGIN = {
  body: {
    type: 'object',
    required: ['user', 'password'],
    properties: {
      user: { type: 'string', examples: ['ada'] },
      password: { type: 'string', examples: ['correct horse'] },
    },
  },
};

export default function buildApp() {
  const app = Fastify();
  app.post('/login', { schema: LOGIN }, async (request) => {
    const key = await pbkdf2(request.body.password, `salt:${request.body.user}`, ITERATIONS, 32, 'sha256');
    return { token: key.toString('hex') };
  });
  app.get('/healthz', async () => ({ ok: true }));
  return app;
}
