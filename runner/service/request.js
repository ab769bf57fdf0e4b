// The request to measure: the one named (--request "POST /login", with --header, --body or --body-file), or the
// route of the built app whose handler reaches the pool calls found (reach.js); the app's other routes are listed
// beside it. A route's body, when none is given, is a sample of the JSON Schema the route validates its body with
// (Fastify's `schema.body`), made by openapi-sampler: the smallest body the route accepts, its required keys only.
import { readFileSync } from 'node:fs';
import { sample } from 'openapi-sampler';
import { LabError } from '../errors.js';

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const REQUEST_HINT = 'write the method and the path as the app serves them: --request "POST /login"';

/**
 * --request, --header, --body, --body-file → the request given, or null when none of them is.
 * @param {{ request?: string, headers?: string[], body?: string, bodyFile?: string }} given
 * @returns {{ method: string, path: string, headers: Record<string, string>, body: string }|null}
 */
export function readGivenRequest({ request, headers = [], body, bodyFile }) {
  if (body !== undefined && bodyFile !== undefined)
    throw new LabError('ERR_USAGE', '--body and --body-file both given', { hint: 'give the body one way' });
  const text = bodyFile === undefined ? body : readBodyFile(bodyFile);
  if (request === undefined && headers.length === 0 && text === undefined) return null;
  const parsed = request === undefined ? {} : parseRequestLine(request);
  const named = Object.fromEntries(headers.map(parseHeader));
  const json = text !== undefined && isJson(text) && !Object.keys(named).some((name) => name === 'content-type');
  return {
    ...parsed,
    headers: { ...(json ? { 'content-type': 'application/json' } : {}), ...named },
    body: text ?? '',
  };
}

function parseRequestLine(line) {
  const match = /^\s*([A-Za-z]+)\s+(\/\S*)\s*$/.exec(line);
  if (!match)
    throw new LabError('ERR_USAGE', `--request: ${JSON.stringify(line)} is not METHOD /path`, { hint: REQUEST_HINT });
  const method = match[1].toUpperCase();
  if (!METHODS.includes(method))
    throw new LabError('ERR_USAGE', `--request: the loader sends ${METHODS.join(', ')}, not ${method}`, {
      hint: REQUEST_HINT,
    });
  return { method, path: match[2] };
}

function parseHeader(header) {
  const at = header.indexOf(':');
  if (at < 1)
    throw new LabError('ERR_USAGE', `--header: ${JSON.stringify(header)} is not NAME: VALUE`, {
      hint: 'e.g. --header "authorization: Bearer x"',
    });
  return [header.slice(0, at).trim().toLowerCase(), header.slice(at + 1).trim()];
}

function readBodyFile(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new LabError('ERR_USAGE', `--body-file: cannot read ${file} (${error.code ?? error.message})`, {
      hint: 'name a file that exists, relative to the current folder',
    });
  }
}

function isJson(text) {
  try {
    JSON.parse(text);
    return /^\s*[[{]/.test(text);
  } catch {
    return false;
  }
}

/**
 * @param {{ framework: string|null, routes: object[] }|null} table  the built app's routes (null: not read), each
 *   with `reached`, the pool calls its handler reaches
 * @param {ReturnType<typeof readGivenRequest>} given
 * @returns {{ method, path, headers, body, route: object|null, why: string, others: object[] }}  route: the route of
 *   the table it matches; why: how it was chosen, for the file's comment; others: every other route
 * @throws {LabError} ERR_USAGE (exit 2): a request the app does not serve, or no way to choose one
 */
export function chooseRequest(table, given) {
  const routes = table?.routes ?? [];
  if (given?.method) {
    const route = routes.find((each) => matchRoute(each, given));
    if (table?.framework && !route)
      throw new LabError('ERR_USAGE', `--request: your app serves no ${given.method} ${given.path}`, {
        hint: `its routes: ${routes.map(formatRoute).join(', ')}; name one of them`,
      });
    return { ...given, route: route ?? null, why: 'named with --request', others: without(routes, route) };
  }
  const reaching = routes.filter((route) => route.reached.length > 0);
  const route = reaching[0] ?? (routes.length === 1 ? routes[0] : null);
  if (!route) {
    if (routes.length === 0)
      return {
        method: 'GET',
        path: '/',
        headers: {},
        body: '',
        ...given,
        route: null,
        why: table?.framework === null ? 'your handler answers every path' : 'the routes were not read',
        others: [],
      };
    throw new LabError(
      'ERR_USAGE',
      `your app serves ${routes.length} routes and no handler of them reaches a call that runs on libuv's pool, so which one to measure is not known`,
      { hint: `name it: --request "${formatRoute(routes[0])}" (its routes: ${routes.map(formatRoute).join(', ')})` },
    );
  }
  if (/[:*{]/.test(route.path))
    throw new LabError('ERR_USAGE', `the route to measure, ${formatRoute(route)}, has a parameter in its path`, {
      hint: `name the request with a real value: --request "${route.method} ${route.path.replace(/:(\w+)/g, (_, name) => `<${name}>`)}"`,
    });
  const body = given?.body ? given : sampleBody(route);
  return {
    method: route.method,
    path: route.path,
    headers: { ...body.headers, ...given?.headers },
    body: body.body,
    route,
    why: reaching.length > 0 ? "its handler reaches a call on libuv's pool" : 'the only route your app serves',
    others: without(routes, route),
  };
}

function sampleBody(route) {
  if (!route.bodySchema || route.method === 'GET') return { headers: {}, body: '' };
  const value = sample(route.bodySchema, { skipNonRequired: true, skipReadOnly: true });
  return { headers: { 'content-type': 'application/json' }, body: JSON.stringify(value), sampled: true };
}

/** "POST /login" */
export function formatRoute(route) {
  return `${route.method} ${route.path}`;
}

// Express, Fastify, Koa and hapi paths: `:name` (and hapi's `{name}`) a segment, `*` anything.
function matchRoute(route, { method, path }) {
  if (route.method !== method) return false;
  const pattern = route.path
    .split('/')
    .map((segment) =>
      segment === '*' || /^\{.+\*\}$/.test(segment)
        ? '.*'
        : /^:|^\{.+\}$/.test(segment)
          ? '[^/]+'
          : segment.replace(/[.+?^$()[\]\\|]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${pattern}/?$`).test(path.split('?')[0]);
}

function without(routes, route) {
  return routes.filter((each) => each !== route);
}
