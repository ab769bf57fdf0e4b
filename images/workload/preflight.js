// Entry of the preflight container (node /app/preflight.js), one per user file before the matrix
// starts: import the module from the read-only mount, check that the export exists and is a
// function, and for a script make one call whose returned keys become the user_<key> columns
// (runs.csv's header is written before the first run). For an http app, build its server once as every
// run will (a factory called, a Fastify app made ready, ...; never listening), so a shape the lab cannot
// serve stops the matrix here; with `routes`, its route table is read (http/route-table.js, for `init`); with
// `request`, the server listens once on loopback and is sent the request every run will send, and the answer's
// status and first line are reported. A `start` command is started as a run starts it and sent the request too.
// Prints one JSON line; exit 2 when the module cannot serve (missing export, not a function, a shape no server can
// be made of, addon for another platform, import error).
//
// LAB_PREFLIGHT: {"kind":"function"|"app"|"start","file":"/lab/user/...","export":"default","args":{},
//   "routes":true,"request":{"method","path","headers","body"},"start":…,"port":3000,"ready":…,"readyTimeout":60}

import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { buildUserServer } from './http/app-shape.js';
import { HOST } from './http/endpoints.js';
import { requestOnce } from './http/request-once.js';
import { readRouteTable, watchFastifyRoutes } from './http/route-table.js';
import { startUserCommand } from './http/start-command.js';
import { loadUserExport } from './user/load-export.js';
import { formatUserError } from './user/user-error.js';
import { pickUserNumbers } from './lib/user-numbers.js';

process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);

// The answer to the request is read for at most this long: a server that takes longer is a run's to time.
const REQUEST_TIMEOUT_MS = 30_000;
// A start command's routes: written by the probe loaded into its process (http/route-probe.js) once it listens.
const ROUTE_PROBE = fileURLToPath(new URL('./http/route-probe.js', import.meta.url));
const ROUTES_FILE = '/tmp/lab-routes.json';
const ROUTES_WAIT_MS = 5000;

const request = JSON.parse(process.env.LAB_PREFLIGHT ?? '{}');
const printed = watchStdout();
const fastify = request.routes ? watchFastifyRoutes() : null;
const exported = request.kind === 'start' ? null : await loadUserExport(request, { anyValue: request.kind === 'app' });
const report = {
  ok: true,
  kind: request.kind,
  arity: typeof exported === 'function' ? exported.length : null,
  columns: [],
};
if (request.kind === 'app') {
  const { server, shape, app } = await buildUserServer(exported, request);
  report.shape = shape;
  if (fastify) report.routes = readRouteTable(app, fastify);
  if (request.request) {
    await new Promise((resolve) => server.listen(0, HOST, resolve));
    report.answer = await sendRequest(server.address().port, request.request);
  }
  server.close();
} else if (request.kind === 'start') {
  if (request.routes) {
    process.env.LAB_ROUTES_FILE = ROUTES_FILE;
    process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --import ${ROUTE_PROBE}`.trim();
  }
  const service = await startUserCommand(request, {
    onFailure: fail,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  try {
    if (request.routes) report.routes = await readRoutesFile();
    if (request.request) report.answer = await sendRequest(request.port, request.request);
  } finally {
    await service.close();
  }
} else if (request.kind === 'function') {
  // The call is a primer: not measured; if it throws, the runs will fail with the same stack.
  try {
    report.columns = Object.keys(pickUserNumbers(await exported(request.args ?? {}, { task: 0 })) ?? {});
  } catch (error) {
    report.callError = formatUserError(error);
  }
}
report.stdout = printed.stop();
// On a line of its own: a module that printed while loading may have left its last line unfinished.
process.stdout.write(`\n${JSON.stringify(report)}\n`, () => process.exit(0));

// The port accepts connections before the service's 'listening' handlers run, the probe's among them: its file is
// waited for, a little. None: the service listened with a server whose app the probe cannot read.
async function readRoutesFile() {
  for (let waited = 0; waited < ROUTES_WAIT_MS; waited += 50) {
    try {
      return JSON.parse(readFileSync(ROUTES_FILE, 'utf8'));
    } catch {
      await delay(50);
    }
  }
  return { framework: null, routes: [], unread: true };
}

// The status of the answer and its body's first line (what a person needs to see why it is not the one expected).
async function sendRequest(port, { method = 'GET', path = '/', headers = {}, body = '' }) {
  const answer = await requestOnce(`http://${HOST}:${port}${path}`, {
    method,
    headers,
    body: body || undefined,
    timeoutMs: REQUEST_TIMEOUT_MS,
  });
  return { status: answer.status, firstLine: answer.body.split('\n', 1)[0].slice(0, 200) };
}

// What the module (and a script's first call) print on stdout: a run prints its result line right after, so a last
// line left unfinished would swallow it (the runner refuses that before the matrix, runner/docker/runs/).
function watchStdout() {
  const write = process.stdout.write.bind(process.stdout);
  let bytes = 0;
  let last = '';
  process.stdout.write = (chunk, ...rest) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    bytes += Buffer.byteLength(text);
    if (text.length > 0) last = text.at(-1);
    return write(chunk, ...rest);
  };
  return {
    stop() {
      process.stdout.write = write;
      return { bytes, unfinished: bytes > 0 && last !== '\n' };
    },
  };
}

function fail(error) {
  process.stderr.write(`preflight failed: ${String(error?.message ?? error).replace(/\s*\n\s*/g, ' ')}\n`);
  process.exit(2);
}
