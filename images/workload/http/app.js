// The measured HTTP server of one process: GET /work runs the request's work (on this thread, or on
// the worker pool), GET /fast answers at once. Cluster processes each run one of these on the same
// port (node:cluster shares it). `server` picks what serves the routes: node:http, or a Fastify app
// with the same two routes (the template-offload post measured Fastify); the work is the same.

import http from 'node:http';
import { APP_PORT, FAST_BODY, FAST_PATH, HOST, WORK_PATH } from './endpoints.js';

const TEXT = 'text/plain; charset=utf-8';

/**
 * @param {{ run: () => string|Promise<string>, fault: string, server?: 'node'|'fastify', port?: number }} options
 *   run: the work, in-thread or via the pool; port: the app port (0 for any free one, in tests)
 * @returns {Promise<http.Server>} listening
 */
export async function startAppServer({ run, fault, server = 'node', port = APP_PORT }) {
  const work = createWorkRoute({ run, fault });
  return server === 'fastify' ? startFastify(work, port) : startNodeHttp(work, port);
}

/** GET /work as a function of a reply callback: the same answers, faults and failures whatever serves it. */
function createWorkRoute({ run, fault }) {
  let reported = false;
  return (reply) => {
    const answer = (body) => {
      if (fault === 'wrong-status') return reply(500, body);
      return reply(200, fault === 'wrong-body' ? `${body} (deliberately wrong)` : body);
    };
    const fail = (error) => {
      // One line is enough: a failing work fails every request alike, and stderr is the run's error column.
      if (!reported) process.stderr.write(`GET ${WORK_PATH} failed: ${error?.message ?? error}\n`);
      reported = true;
      reply(500, 'work failed');
    };
    try {
      const body = run();
      if (typeof body?.then === 'function') body.then(answer, fail);
      else answer(body);
    } catch (error) {
      fail(error);
    }
  };
}

async function startNodeHttp(work, port) {
  const server = http.createServer((request, response) => {
    const reply = (status, body) => {
      response.writeHead(status, { 'content-type': TEXT, 'content-length': Buffer.byteLength(body) });
      response.end(body);
    };
    if (request.url === FAST_PATH) return reply(200, FAST_BODY);
    if (request.url !== WORK_PATH) return reply(404, 'not found');
    return work(reply);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, resolve);
  });
  return server;
}

// Loaded on use: node:http runs never load Fastify. Its http.Server is what the callers close.
async function startFastify(work, port) {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  app.get(FAST_PATH, (_request, reply) => {
    reply.type(TEXT).send(FAST_BODY);
  });
  app.get(WORK_PATH, (_request, reply) => {
    work((status, body) => reply.code(status).type(TEXT).send(body));
    return reply;
  });
  await app.listen({ port, host: HOST });
  return app.server;
}
