// What a user's `http.app` export is, told by its shape (no framework is imported: the user's own
// node_modules has whichever they use), and the unlistened http.Server the lab serves it with:
//   handler      a function of two or more parameters: `(req, res)`, Express's `(req, res, next)` app
//   factory      a function of fewer parameters, called (and awaited) once per process or thread; it
//                returns one of the shapes below
//   http.Server  a net.Server not yet listening (`listen()` is the lab's: its port, its cluster)
//   listener     a function returned by a factory: a request listener (an Express app built inside it)
//   Fastify      `await app.ready()`, then `app.server`: the http.Server Fastify built with its own options
//                (timeouts, serverFactory, clientError handler), the one its serverless guide emits requests on
//   Hapi         `await server.initialize()` (plugins, caches; no listening), then `server.listener`
//   Koa          `http.createServer(app.callback())`
// The export itself may also be one of the instances, or a promise of one.

import http from 'node:http';
import net from 'node:net';
import { WorkloadError } from '../workload-error.js';
import { formatUserError } from '../user/user-error.js';

export const SHAPES_IN_WORDS =
  'a (req, res) handler (an Express app is one), an http.Server not listening, a Fastify instance, a Koa app or a Hapi server, ' +
  'or a function that returns (or resolves to) one of them';

/**
 * @param {unknown} exported  the export's value (load-export.js)
 * @param {{ file: string, export: string }} app  for messages
 * @returns {Promise<{ server: import('node:net').Server, shape: string, app: unknown }>}  the server is not listening;
 *   shape in words ("a factory returning a Fastify app"), for the preflight to say; app: what it was made of (the
 *   handler, or the instance a factory returned), whose route table the preflight reads (route-table.js)
 */
export async function buildUserServer(exported, app) {
  const label = `export \`${app.export}\` of ${app.file.replace(/^\/lab\/user\//, '')}`;
  const value = isThenable(exported) ? await exported : exported;
  if (typeof value === 'function' && value.length >= 2)
    return { server: serveListener(value), shape: 'a (req, res) handler', app: value };
  if (typeof value === 'function') {
    const built = await value();
    const found = await toServer(built, label);
    if (found) return { ...found, shape: `a factory returning ${found.shape}`, app: built };
    throw invalidShape(
      `${label} takes fewer than two parameters, so it was called as a factory, but it returned ${describeValue(built)}`,
      built,
    );
  }
  const found = await toServer(value, label);
  if (found) return { ...found, app: value };
  throw invalidShape(`${label} is ${describeValue(value)}`, value);
}

/** The instance shapes (what a factory returns, or the export itself); null when none fits. */
async function toServer(value, label) {
  if (value instanceof net.Server)
    return { server: checkNotListening(value, label, 'listen()'), shape: 'an http.Server' };
  if (typeof value === 'function') return { server: serveListener(value), shape: 'a request listener' };
  if (value === null || typeof value !== 'object') return null;
  if (isFastify(value)) {
    await value.ready();
    return { server: checkNotListening(value.server, label, 'listen()'), shape: 'a Fastify app' };
  }
  if (isHapi(value)) {
    await value.initialize();
    return { server: checkNotListening(value.listener, label, 'start()'), shape: 'a Hapi server' };
  }
  if (isKoa(value)) return { server: http.createServer(value.callback()), shape: 'a Koa app' };
  return null;
}

// Fastify: avvio's ready() and the http.Server it created with the instance.
const isFastify = (value) =>
  typeof value.ready === 'function' && typeof value.register === 'function' && value.server instanceof net.Server;
// Hapi: initialize() and its `listener`.
const isHapi = (value) =>
  typeof value.initialize === 'function' && typeof value.route === 'function' && value.listener instanceof net.Server;
// Koa: callback() gives the request listener.
const isKoa = (value) => typeof value.callback === 'function' && typeof value.use === 'function';

function checkNotListening(server, label, call) {
  if (!server.listening) return server;
  throw new WorkloadError(
    'ERR_EXPORT_INVALID',
    `${label} gave a server that is already listening: return it without calling ${call}, the lab listens itself (its port; in every cluster process; not at all in worker threads)`,
  );
}

function invalidShape(said, value) {
  const fetchApp =
    value !== null && typeof value === 'object' && typeof value.fetch === 'function'
      ? ' It has fetch(request): a Fetch-API app (Hono, …) needs a Node adapter, e.g. export getRequestListener(app.fetch) from @hono/node-server.'
      : '';
  return new WorkloadError(
    'ERR_EXPORT_INVALID',
    `${said}, which the lab cannot serve: export ${SHAPES_IN_WORDS}.${fetchApp}`,
  );
}

function describeValue(value) {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value !== 'object') return `a ${typeof value}`;
  const name = value.constructor?.name;
  const keys = Object.keys(value).slice(0, 6);
  return `an object${name && name !== 'Object' ? ` of class ${name}` : ''}${keys.length > 0 ? ` with keys ${keys.join(', ')}` : ''}`;
}

function isThenable(value) {
  return (
    value !== null && (typeof value === 'object' || typeof value === 'function') && typeof value.then === 'function'
  );
}

/**
 * A handler that throws (or rejects) would crash a plain Node server all the same; here the run fails
 * with the user's stack in `error`, not only the message.
 */
function serveListener(handler) {
  const explain = (request, error) =>
    new WorkloadError(
      'ERR_TASK_FAILED',
      `your app threw on ${request.method} ${request.url}: ${formatUserError(error)}`,
      { cause: error },
    );
  return http.createServer(function handle(request, response, ...rest) {
    let returned;
    try {
      returned = handler.call(this, request, response, ...rest);
    } catch (error) {
      throw explain(request, error);
    }
    if (typeof returned?.then === 'function') {
      returned.then(undefined, (error) => {
        throw explain(request, error);
      });
    }
  });
}
