// The routes a user's built app serves, read from the framework's own route table (never from its text), each
// with where its handler is written: Fastify's onRoute hook (on every instance, from the diagnostics channel
// Fastify publishes at its creation, so routes registered by the factory itself are seen too), Express's router
// stack (4: app._router, 5: app.router; mounted routers followed), @koa/router's stack (the router is on the
// middleware its routes() returns) and hapi's server.table(). A handler's place comes from V8 through the inspector
// ([[FunctionLocation]]: the file and position of its parameters). Used by the preflight container (preflight.js)
// for `init`, which turns the table into the request to measure (runner/service/).

import diagnostics from 'node:diagnostics_channel';
import inspector from 'node:inspector';
import { fileURLToPath } from 'node:url';
import { USER_MOUNT } from '../lib/user-files.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Listens for Fastify instances before the user's module is imported; call before loadUserExport.
 * @returns {{ routes: object[] }}  filled as the instances register their routes
 */
export function watchFastifyRoutes() {
  const seen = { routes: [] };
  diagnostics.subscribe('fastify.initialization', ({ fastify }) => {
    fastify.addHook('onRoute', (options) => {
      for (const method of [options.method].flat())
        seen.routes.push({
          method,
          path: options.url,
          handlers: [options.handler, ...[options.preHandler ?? []].flat()],
          bodySchema: options.schema?.body,
        });
    });
  });
  return seen;
}

/**
 * @param {unknown} app  what the lab serves (app-shape.js's `app`): an Express app, a Koa app, a hapi server, a
 *   Fastify instance, a handler
 * @param {{ routes: object[] }} fastify  watchFastifyRoutes()'s
 * @param {{ root?: string }} [options]  the user's mounted folder: handlers elsewhere (a package's) are not theirs
 * @returns {{ framework: string|null, routes: { method: string, path: string, handlers: object[],
 *   bodySchema?: object }[] }}  framework null: no route table (a bare handler serves every path); handlers: the
 *   user's own functions' places, { file (relative to the mounted folder), line, column }
 */
export function readRouteTable(app, fastify, { root = USER_MOUNT } = {}) {
  const found = findTable(app, fastify);
  if (!found) return { framework: null, routes: [] };
  const locate = createLocator(root);
  try {
    const routes = found.routes
      .filter((route) => METHODS.includes(route.method.toUpperCase()))
      .map((route) => ({
        method: route.method.toUpperCase(),
        path: route.path,
        handlers: route.handlers.map(locate).filter(Boolean),
        ...(route.bodySchema && typeof route.bodySchema === 'object' ? { bodySchema: route.bodySchema } : {}),
      }));
    return { framework: found.framework, routes };
  } finally {
    locate.close();
  }
}

function findTable(app, fastify) {
  if (fastify.routes.length > 0) return { framework: 'fastify', routes: fastify.routes };
  if (!app || (typeof app !== 'object' && typeof app !== 'function')) return null;
  if (typeof app.table === 'function' && typeof app.route === 'function')
    return {
      framework: 'hapi',
      routes: app.table().flatMap((route) =>
        (route.method === '*' ? METHODS : [route.method]).map((method) => ({
          method,
          path: route.path,
          handlers: [route.settings?.handler].filter((each) => typeof each === 'function'),
        })),
      ),
    };
  if (Array.isArray(app.middleware) && typeof app.callback === 'function')
    return { framework: 'koa', routes: app.middleware.flatMap((fn) => readKoaRouter(fn.router)) };
  const stack = readExpressRouter(app)?.stack;
  if (Array.isArray(stack)) return { framework: 'express', routes: readExpressStack(stack, '') };
  return null;
}

// Express 4's router is `_router` (its `router` getter throws, to tell 3.x users it went away); Express 5's `router`.
function readExpressRouter(app) {
  if (app._router) return app._router;
  try {
    return app.router;
  } catch {
    return undefined;
  }
}

function readKoaRouter(router) {
  if (!router || !Array.isArray(router.stack)) return [];
  return router.stack.flatMap((layer) =>
    (layer.methods ?? [])
      .filter((method) => method !== 'HEAD' || !layer.methods.includes('GET'))
      .map((method) => ({ method, path: layer.path, handlers: layer.stack ?? [] })),
  );
}

function readExpressStack(stack, prefix) {
  return stack.flatMap((layer) => {
    if (layer.route) {
      const handlers = layer.route.stack.map((each) => each.handle);
      return Object.keys(layer.route.methods)
        .filter((method) => method !== '_all')
        .map((method) => ({ method, path: joinPath(prefix, layer.route.path), handlers }));
    }
    if (Array.isArray(layer.handle?.stack))
      return readExpressStack(layer.handle.stack, joinPath(prefix, mountPath(layer)));
    return [];
  });
}

// Express 5 keeps the path a router is mounted at (rawPath); Express 4 only its regular expression.
function mountPath(layer) {
  if (typeof layer.rawPath === 'string') return layer.rawPath;
  const source = layer.regexp?.source ?? '';
  let index = 0;
  return source
    .replace(/^\^/, '')
    .replace(/\\\/\?\(\?=\\\/\|\$\)$/, '')
    .replace(/\(\?:\(\[\^\\\/\]\+\?\)\)/g, () => `:${layer.keys?.[index++]?.name ?? 'param'}`)
    .replace(/\\(.)/g, '$1');
}

function joinPath(prefix, path) {
  const joined = `${prefix.replace(/\/$/, '')}/${String(path).replace(/^\//, '')}`;
  return joined.length > 1 ? joined.replace(/\/$/, '') : '/';
}

// An inspector session of this process: a function's [[FunctionLocation]] (of a bound function, its target's).
function createLocator(root) {
  const session = new inspector.Session();
  session.connect();
  const scripts = new Map();
  session.on('Debugger.scriptParsed', ({ params }) => scripts.set(params.scriptId, params.url));
  const post = (method, params) => {
    let answer;
    let failure;
    // A session of the same thread answers synchronously.
    session.post(method, params, (error, result) => {
      failure = error;
      answer = result;
    });
    if (failure) throw failure;
    return answer;
  };
  post('Debugger.enable');
  const internal = (objectId) =>
    post('Runtime.getProperties', { objectId, ownProperties: true }).internalProperties ?? [];
  const locate = (fn) => {
    if (typeof fn !== 'function') return null;
    globalThis.__labRouteHandler = fn;
    try {
      let properties = internal(
        post('Runtime.evaluate', { expression: 'globalThis.__labRouteHandler' }).result.objectId,
      );
      for (let depth = 0; depth < 4; depth++) {
        const target = properties.find((property) => property.name === '[[TargetFunction]]');
        if (!target) break;
        properties = internal(target.value.objectId);
      }
      const place = properties.find((property) => property.name === '[[FunctionLocation]]')?.value?.value;
      const url = place && scripts.get(place.scriptId);
      if (!url?.startsWith('file:')) return null;
      const file = fileURLToPath(url);
      if (!file.startsWith(`${root}/`) || file.includes('/node_modules/')) return null;
      return { file: file.slice(root.length + 1), line: place.lineNumber + 1, column: place.columnNumber + 1 };
    } finally {
      delete globalThis.__labRouteHandler;
    }
  };
  locate.close = () => session.disconnect();
  return locate;
}
