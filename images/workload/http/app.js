// The measured HTTP server of one process: GET /work runs the request's work (on this thread, or on
// the worker pool), GET /fast answers at once. Cluster processes each run one of these on the same
// port (node:cluster shares it).

import http from 'node:http';
import { APP_PORT, FAST_BODY, FAST_PATH, HOST, WORK_PATH } from './endpoints.js';

/**
 * @param {{ run: () => string|Promise<string>, fault: string }} options  run: the work, in-thread or via the pool
 * @returns {Promise<http.Server>} listening
 */
export async function startAppServer({ run, fault }) {
  let reported = false;
  const server = http.createServer((request, response) => {
    if (request.url === FAST_PATH) return send(response, 200, FAST_BODY);
    if (request.url !== WORK_PATH) return send(response, 404, 'not found');
    const answer = (body) => {
      if (fault === 'wrong-status') return send(response, 500, body);
      return send(response, 200, fault === 'wrong-body' ? `${body} (deliberately wrong)` : body);
    };
    const fail = (error) => {
      // One line is enough: a failing work fails every request alike, and stderr is the run's error column.
      if (!reported) process.stderr.write(`GET ${WORK_PATH} failed: ${error?.message ?? error}\n`);
      reported = true;
      send(response, 500, 'work failed');
    };
    try {
      const body = run();
      if (typeof body?.then === 'function') body.then(answer, fail);
      else answer(body);
    } catch (error) {
      fail(error);
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(APP_PORT, HOST, resolve);
  });
  return server;
}

function send(response, status, body) {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  response.end(body);
}
