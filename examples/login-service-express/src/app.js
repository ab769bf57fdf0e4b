// The app: POST /login derives a key from the password with pbkdf2 (on libuv's pool, through promisify), GET /healthz
// answers at once. The Express app is the export; src/server.js listens.
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import express from 'express';

const pbkdf2 = promisify(crypto.pbkdf2);
const ITERATIONS = 100_000;

async function login(request, response) {
  const { user = 'guest', password = '' } = request.body ?? {};
  const key = await pbkdf2(password, `salt:${user}`, ITERATIONS, 32, 'sha256');
  response.json({ token: key.toString('hex') });
}

const app = express();
app.post('/login', express.json(), login);
app.get('/healthz', (request, response) => response.json({ ok: true }));

export default app;
