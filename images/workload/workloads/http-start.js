// `params.http.start`: the service's own start command instead of the lab's server or `app` (http/start-command.js
// runs it). Its keys, its config checks, and what the container gets. None of the keys has a schema default,
// so the cell ids of http cells without `start` stay what they were; the defaults are filled in toContainer.

import path from 'node:path';
import { checkUserRoot, toUserMount } from '../lib/user-files.js';
import { CONTROL_PORT } from '../http/endpoints.js';

export const START_DEFAULTS = { port: 3000, readyTimeout: 60 };

/** What the loader sends: `app`'s route keys, and `request`'s with `start`. */
export const ROUTE_PROPERTIES = {
  path: {
    type: 'string',
    pattern: '^/',
    default: '/',
    examples: ['/api/users?limit=20'],
    title: 'Route',
    description: 'Path (and query) every request asks for.',
  },
  method: {
    type: 'string',
    enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    default: 'GET',
    title: 'Method',
    description: 'HTTP method of every request.',
  },
  headers: {
    type: 'object',
    additionalProperties: { type: 'string' },
    default: {},
    examples: [{ 'content-type': 'application/json' }],
    title: 'Headers',
    description: 'Request headers, name → value.',
  },
  body: {
    type: 'string',
    default: '',
    examples: ['{"name":"ada"}'],
    title: 'Body',
    description: 'Request body, sent as is.',
  },
  status: {
    type: 'integer',
    minimum: 100,
    maximum: 599,
    default: 200,
    title: 'Expected status',
    description: 'Any other status fails the run before it is measured; during it, non-2xx answers count in non2xx.',
  },
};

const REQUEST_DEFAULTS = Object.fromEntries(
  Object.entries(ROUTE_PROPERTIES).map(([key, schema]) => [key, schema.default]),
);

export const startParams = {
  start: {
    type: ['string', 'array'],
    minLength: 1,
    items: { type: 'string', minLength: 1 },
    minItems: 1,
    examples: ['node src/server.js', ['node', 'src/server.js']],
    title: 'Your start command',
    description:
      "Run your service as production starts it, instead of the lab's server or `app`: a string goes to `sh -c`, a list is the " +
      "program and its arguments (no shell). It runs in the server container with the cell's environment (UV_THREADPOOL_SIZE, " +
      'NODE_OPTIONS, env axes), in `root` (read-only), and is loaded once `port` answers (and `ready`). Not with `cluster` or `workers`: ' +
      'your service forks or starts threads as its own code does. See docs/own-code.md.',
  },
  root: {
    type: 'string',
    minLength: 1,
    examples: ['.', '../my-service'],
    title: "Your service's folder",
    description:
      "With `start`: mounted read-only at /lab/user and the command's working directory (its node_modules is what it imports); " +
      'relative to the folder of the experiments file, which is the default.',
  },
  port: {
    type: 'integer',
    minimum: 1,
    maximum: 65535,
    examples: [3000, 8080],
    title: 'Port your service listens on',
    description: `With \`start\`: the port the loader sends requests to (default ${START_DEFAULTS.port}); any address of the container (0.0.0.0, ::, 127.0.0.1). Not ${CONTROL_PORT}, the lab's control port.`,
  },
  ready: {
    type: 'string',
    pattern: '^/',
    examples: ['/health'],
    title: 'Readiness route',
    description:
      'With `start`: before loading, wait until GET of this path answers 2xx (besides the port accepting connections).',
  },
  readyTimeout: {
    type: 'number',
    exclusiveMinimum: 0,
    examples: [60],
    title: 'Start-up bound (s)',
    description: `With \`start\`: seconds to wait for \`port\` (and \`ready\`) to answer (default ${START_DEFAULTS.readyTimeout}); past it the run's status is not_ready, its error saying what it waited for.`,
  },
  request: {
    type: 'object',
    additionalProperties: false,
    title: 'The request',
    description:
      'With `start`: what the loader sends your service, as `app` has it: `path`, `method`, `headers`, `body`, expected `status`.',
    properties: ROUTE_PROPERTIES,
  },
};

const START_ONLY = ['root', 'port', 'ready', 'readyTimeout', 'request'];

/** Issues (paths relative to params.http) of `start` and its keys, for values with the defaults filled in. */
export function checkStartParams(filled, { configDir } = {}) {
  if (filled.start === undefined) return [];
  const issues = [];
  if (filled.app)
    issues.push({
      path: ['start'],
      message: 'expected `start` or `app`, found both',
      hint: 'keep `app:` to serve your module with the lab harness (cluster, workers), or `start:` to run your service as it starts in production',
    });
  if (filled.port === CONTROL_PORT)
    issues.push({
      path: ['port'],
      message: `expected a port other than ${CONTROL_PORT}, the lab's control port inside the container`,
      hint: `make your service listen elsewhere (e.g. PORT as an env axis or \`env: {PORT: "3000"}\`) and write that port`,
    });
  if (filled.server === 'fastify')
    issues.push({
      path: ['server'],
      message: 'expected no `server` with `start`, found fastify',
      hint: 'remove `server:` (your service is its own server)',
    });
  if (filled.fastProbe === true)
    issues.push({
      path: ['fastProbe'],
      message: 'expected no `fastProbe` with `start`, found true',
      hint: "remove `fastProbe:` (your service has no GET /fast of the lab's)",
    });
  const request = { ...REQUEST_DEFAULTS, ...filled.request };
  if (filled.load === 'burst' && (request.method !== 'GET' || request.body))
    issues.push({
      path: ['request', 'method'],
      message: `expected GET without a body for \`load: burst\`, found ${request.method}${request.body ? ' with a body' : ''}`,
      hint: 'use `load: loop` for this route, or load a GET route in bursts',
    });
  if (filled.root !== undefined) issues.push(...checkUserRoot(filled.root, configDir));
  return issues;
}

/** Keys of `start` written without it: nothing reads them. */
export function findIgnoredStartKeys(written) {
  if (written.start !== undefined) return [];
  return START_ONLY.filter((key) => key in written).map((key) => ({
    path: [key],
    message: `\`${key}\` is ignored without \`start\`: it describes your own start command`,
    hint: `remove \`${key}:\`, or add \`start:\` (e.g. \`start: node src/server.js\`)`,
  }));
}

/** `cluster` and `workers` are the lab's harness around a module; a start command is your process as it is. */
export function checkStartCell(values, params) {
  if (params?.start === undefined) return [];
  return ['cluster', 'workers']
    .filter((axis) => values[axis] !== undefined)
    .map((axis) => ({
      axis,
      message: `\`${axis}\` needs the lab's harness around your code, and \`start\` runs your service as it is: the lab cannot ${axis === 'cluster' ? 'fork it into processes' : 'move its requests to worker threads'}`,
      hint:
        axis === 'cluster'
          ? 'vary what your own code reads instead, as an env axis (e.g. `WEB_CONCURRENCY: [1, 2]` if it forks that many workers), or use `app:` (your module, served by the lab in N processes)'
          : 'vary your own pool setting as an env axis (e.g. `POOL_SIZE: [0, 2]` if your code reads it), or use `app:` (your module, served by the lab in W threads)',
    }));
}

/** The container's params (defaults filled, `root` turned into the mount) and the mount of the service's folder. */
export function startToContainer(filled, { configDir }) {
  const { root, ...rest } = filled;
  const hostRoot = path.resolve(configDir, root ?? '.');
  return {
    params: { ...START_DEFAULTS, ...rest, request: { ...REQUEST_DEFAULTS, ...rest.request } },
    mounts: [toUserMount(hostRoot)],
  };
}
