// http: a server (single process, `cluster`, `workers` pool) under autocannon load from a second
// container, not a batch of tasks. It has no runTask: run.js hands the whole run to runPrimary
// (http/primary.js) and cluster children to serveChild (http/cluster-server.js), loader.js drives it from a
// second container, and the runner's executor starts both (`serves`). Object parameters take their defaults key by key
// (params.js), so
// `pbkdf2: {iterations: 5000}` keeps the other pbkdf2 keys.

import { listPoolLoads, listThreadLoads, shareCpus } from '../lib/capacity.js';
import { responseQuantile } from '../lib/md1.js';
import { checkCpuset } from '../lib/check-host.js';
import { checkUserFile, resolveUserFile, toUserMount } from '../lib/user-files.js';
import { CPUSET_PATTERN } from '../lib/cpuset.js';
import { assertRunnable as assertArgon2Runnable } from './argon2.js';
import { checkParams as checkPbkdf2, params as pbkdf2Params } from './pbkdf2.js';
import {
  checkStartCell,
  checkStartParams,
  findIgnoredStartKeys,
  ROUTE_PROPERTIES,
  startParams,
  startToContainer,
} from './http-start.js';

export const description =
  'An HTTP server (single process, `cluster` processes, or a `workers` pool) under autocannon load from a separate ' +
  'container in its network namespace. GET /work does `work`; GET /fast answers at once (probed with `fastProbe`).';

/** Runs as a server with a load generator beside it (loader.js; runner/docker/runs/executor.js starts both). */
export const serves = true;

// The server runs until the load generator has measured it. Loaded on use: the runner imports this
// module for its tables and must not load the server (or its packages).
export async function runPrimary(spec) {
  const { runHttpPrimary } = await import('../http/primary.js');
  return runHttpPrimary(spec);
}

export async function serveChild(spec) {
  const { serveHttpClusterProcess } = await import('../http/cluster-server.js');
  return serveHttpClusterProcess(spec);
}

const WORK_KINDS = ['pbkdf2', 'argon2', 'spin', 'template', 'none'];

const group = (title, description, properties) => ({
  type: 'object',
  additionalProperties: false,
  title,
  description,
  properties,
  // A key without a default (open.rate) has none in the group's either.
  default: Object.fromEntries(
    Object.entries(properties)
      .filter(([, schema]) => schema.default !== undefined)
      .map(([name, schema]) => [name, schema.default]),
  ),
});

export const params = {
  work: {
    type: 'string',
    enum: WORK_KINDS,
    default: 'pbkdf2',
    examples: WORK_KINDS,
    title: 'Work per request',
    description:
      'What GET /work does: pbkdf2 or argon2 (password hashing on the libuv pool; pbkdf2 sync: true blocks the thread), ' +
      'spin (busy for `spin.ms` of CPU time on the handling thread, like a blocking loop), template (render a mustache page of `template.rows` rows), ' +
      'none (answer at once). Its sub-parameters are under the key of the same name.',
  },
  pbkdf2: group('pbkdf2 work', 'One crypto.pbkdf2 per request, fixed password and salt.', {
    iterations: {
      type: 'integer',
      minimum: 1,
      default: 10000,
      examples: [10000],
      title: 'Iterations',
      description: 'pbkdf2 iterations per request.',
    },
    keylen: {
      type: 'integer',
      minimum: 1,
      default: 64,
      examples: [64],
      title: 'Key length',
      description: 'Derived key length in bytes; the body is its hex.',
    },
    digest: pbkdf2Params.digest,
    sync: {
      ...pbkdf2Params.sync,
      description:
        'false: async crypto.pbkdf2 on the libuv pool; true: pbkdf2Sync blocks the thread handling the request.',
    },
  }),
  argon2: group(
    'argon2 work',
    'One argon2id hash per request (npm argon2, on the libuv pool). Defaults: the OWASP minimum.',
    {
      memoryCost: {
        type: 'integer',
        minimum: 1024,
        default: 19456,
        examples: [19456],
        title: 'Memory cost (KiB)',
        description: 'Memory per hash in KiB.',
      },
      timeCost: {
        type: 'integer',
        minimum: 1,
        default: 2,
        examples: [2],
        title: 'Time cost',
        description: 'Passes over the memory.',
      },
      parallelism: {
        type: 'integer',
        minimum: 1,
        maximum: 255,
        default: 1,
        examples: [1],
        title: 'Parallelism',
        description: 'Lanes per hash.',
      },
    },
  ),
  spin: group('spin work', 'Busy CPU on the thread handling the request, like a blocking loop.', {
    ms: {
      type: 'number',
      minimum: 1,
      default: 5,
      examples: [5, 20],
      title: 'Milliseconds',
      description:
        'CPU time each request burns on the handling thread (not wall time: under a quota a throttled request still does the same work).',
    },
  }),
  template: group('template work', 'Render a mustache page (the "offload rendering" case).', {
    rows: {
      type: 'integer',
      minimum: 1,
      default: 100,
      examples: [100, 1000],
      title: 'Rows',
      description: 'Repeats in the page: its size (catalogue ≈ 150 bytes a row, loves ≈ 30).',
    },
    page: {
      type: 'string',
      enum: ['catalogue', 'loves'],
      default: 'catalogue',
      examples: ['catalogue', 'loves'],
      title: 'Page',
      description:
        'catalogue: an HTML table of `rows` products (sections, escaping, nested lists); loves: the line `<em>{{me}} loves {{you}}</em>` repeated `rows` times, as in the "offload rendering" post.',
    },
  }),
  server: {
    type: 'string',
    enum: ['node', 'fastify'],
    default: 'node',
    examples: ['node', 'fastify'],
    title: 'Server',
    description:
      'What serves GET /work and GET /fast: node (node:http) or fastify (a Fastify app with the same two routes, as the ' +
      'template-offload post used). The work, the pool and the processes are the same. Unused with `app` (your app is its own server).',
  },
  duration: {
    type: 'number',
    minimum: 0.1,
    default: 10,
    examples: [10, 30],
    title: 'Measured seconds',
    description: 'Length of the measured period.',
  },
  warmup: {
    type: 'number',
    minimum: 0,
    default: 3,
    examples: [3],
    title: 'Warm-up seconds',
    description: 'Load before the measured period, not counted (JIT, pools, connections).',
  },
  connections: {
    type: 'integer',
    minimum: 1,
    default: 10,
    examples: [10, 100],
    title: 'Connections',
    description: 'Concurrent connections autocannon keeps open.',
  },
  pipelining: {
    type: 'integer',
    minimum: 1,
    default: 1,
    examples: [1, 10],
    title: 'Pipelining',
    description: 'Requests in flight per connection.',
  },
  rate: {
    type: 'integer',
    minimum: 1,
    examples: [500],
    title: 'Fixed rate (req/s)',
    description: 'Requests per second over all connections; leave out to send as fast as the server answers.',
  },
  fastProbe: {
    type: 'boolean',
    default: false,
    examples: [false, true],
    title: 'GET /fast probe',
    description:
      'true: during the measured period, GET /fast on one more connection at 100 requests a second (fast_route_p50_ms, ' +
      'fast_route_p99_ms: how long a trivial request waits while the server is busy). Off by default: its CPU time is in the ' +
      "period's but its answers are not among the responses, so it makes a response look dearer, most in the cells that answer fewest.",
  },
  load: {
    type: 'string',
    enum: ['loop', 'open', 'burst', 'idle'],
    default: 'loop',
    examples: ['loop', 'open', 'burst', 'idle'],
    title: 'Load',
    description:
      'loop: a closed loop of `connections` for `duration` s (autocannon: throughput; the next request waits for an answer). ' +
      'open: requests at `open.rate` per second whether or not earlier ones were answered, timed from when each was due ' +
      '(latency at your traffic, no coordinated omission). burst: `burst.rounds` bursts of ' +
      '`burst.requests` simultaneous requests (ApacheBench -n N -c N: how long N requests at once wait). idle: no request ' +
      'at all for `duration` s, the baseline of the event-loop delay.',
  },
  open: group(
    'Open-loop load',
    'With `load: open`: a fixed arrival rate, as wrk2, k6 (constant-arrival-rate) and Artillery send it; each request timed from when it was due.',
    {
      rate: {
        type: 'number',
        exclusiveMinimum: 0,
        examples: [200],
        title: 'Arrival rate (req/s)',
        description:
          'Requests per second, sent whether or not earlier ones were answered (required with `load: open`). With `slo:`, the rate the capacity search starts from.',
      },
      arrivals: {
        type: 'string',
        enum: ['poisson', 'constant'],
        default: 'poisson',
        examples: ['poisson', 'constant'],
        title: 'Arrivals',
        description:
          'poisson: independent arrivals, exponential gaps of mean 1/rate (many users acting on their own); constant: one every 1/rate s.',
      },
      connections: {
        type: 'integer',
        minimum: 1,
        default: 1000,
        examples: [1000],
        title: 'Most connections',
        description:
          'The most connections open at once: a request that finds them all busy waits for one, and the run is marked `loader_behind`. ' +
          'Enough that the generator never waits: rate × the slowest answer.',
      },
      max_lag_ms: {
        type: 'number',
        exclusiveMinimum: 0,
        examples: [2],
        title: 'Most send lag (ms)',
        description:
          'The most the p99 of how late requests were sent may be before the run is marked `loader_behind` and not counted; the latencies, timed from the due time, include the lag. ' +
          'Left out: 2 ms; with `slo:`, 5% of the SLO (at least 2 ms): a lag that would move a p99 by less than the margin of a bound.',
      },
    },
  ),
  burst: group(
    'Burst load (ApacheBench-style)',
    'With `load: burst`: `rounds` bursts of `requests` simultaneous requests, each on a new connection, as `ab -n N -c N` sends them.',
    {
      requests: {
        type: 'integer',
        minimum: 1,
        default: 6,
        examples: [6],
        title: 'Requests per burst',
        description: 'Each burst sends this many requests at once and ends when the last is answered.',
      },
      rounds: {
        type: 'integer',
        minimum: 1,
        default: 20,
        examples: [20, 100],
        title: 'Bursts',
        description: 'Bursts per run, one after the other.',
      },
      fast: {
        type: 'boolean',
        default: false,
        examples: [false, true],
        title: 'GET /fast during each burst',
        description:
          "50 ms after each burst is sent, one GET /fast on a new connection, timed alone (burst_fast_p50_ms): is a trivial route answered while the burst's work runs?",
      },
    },
  ),
  loader: group(
    'Load generator',
    "The autocannon container: its own CPU limit and, where the host has CPUs beyond the server's budget, its own cpuset.",
    {
      cpus: {
        type: 'number',
        exclusiveMinimum: 0,
        multipleOf: 0.001,
        default: 1,
        examples: [1],
        title: 'Loader CPU quota',
        description: 'CPUs the load generator may use (at most the host count; autocannon uses one thread).',
      },
      cpuset: {
        type: 'string',
        pattern: `^(auto|none|${CPUSET_PATTERN.slice(1, -1)})$`,
        default: 'auto',
        examples: ['auto', 'none', '1'],
        title: 'Loader CPU set',
        description:
          'auto: pin the loader to host CPUs the server does not need: outside its `cpuset`, or, without one, beyond its `cpus` rounded up ' +
          '(the server then runs on the others, its quota unchanged); when none are spare, unpinned and shared (loader_shared). ' +
          'none: never pin. A CPU list ("1", "2-3"): pin there.',
      },
    },
  ),
  app: {
    type: 'object',
    additionalProperties: false,
    required: ['file'],
    title: 'Your app',
    description:
      "Serve your own app instead of the lab's: `export` is a `(req, res)` handler (two or more parameters: an Express app is one), " +
      'an http.Server not listening, a Fastify instance, a Koa app or a Hapi server, or a function returning (or resolving to) one of them. ' +
      'The loader sends `method` `path` (with `headers` and `body`) and expects `status`; `work` is then unused. See docs/own-code.md.',
    properties: {
      file: {
        type: 'string',
        minLength: 1,
        examples: ['server/app.js'],
        title: 'Module file',
        description: 'Relative to the folder of the experiments file.',
      },
      export: {
        type: 'string',
        minLength: 1,
        default: 'default',
        examples: ['default', 'handler'],
        title: 'Export name',
        description: 'The handler, the app, or the function that builds it.',
      },
      root: {
        type: 'string',
        minLength: 1,
        examples: ['.'],
        title: 'Folder to mount',
        description: "Mounted read-only (its node_modules is used); default: the file's folder.",
      },
      ...ROUTE_PROPERTIES,
    },
  },
  ...startParams,
  fault: {
    type: 'string',
    enum: ['none', 'wrong-body', 'wrong-status'],
    default: 'none',
    examples: ['none'],
    title: 'Fault (tests only)',
    description:
      "Makes the server answer GET /work wrongly, to show that the loader's check fails the run. Leave at none.",
  },
};

// The row's http columns: the load generator's line gives the first ones, the server's line the
// event-loop delay, and the runner the loader's limits (runner/collect/http-result.js).
export const columns = [
  { name: 'requests_per_sec', unit: 'req/s', description: 'responses per second over the measured period' },
  { name: 'latency_p50_ms', unit: 'ms', description: 'median response time' },
  { name: 'latency_p90_ms', unit: 'ms', description: '90th percentile response time' },
  { name: 'latency_p99_ms', unit: 'ms', description: '99th percentile response time' },
  { name: 'latency_p999_ms', unit: 'ms', description: '99.9th percentile response time' },
  { name: 'latency_max_ms', unit: 'ms', description: 'slowest response' },
  { name: 'throughput_bytes_per_sec', unit: 'B/s', description: 'response bytes per second' },
  { name: 'errors', unit: '', description: 'connection errors' },
  { name: 'timeouts', unit: '', description: 'requests that timed out' },
  { name: 'non2xx', unit: '', description: 'responses with a status other than 2xx' },
  {
    name: 'fast_route_p50_ms',
    unit: 'ms',
    description:
      'with fastProbe: median of GET /fast while /work is loaded (a light probe: one connection, 100 requests a second)',
  },
  { name: 'fast_route_p99_ms', unit: 'ms', description: 'with fastProbe: p99 of GET /fast while /work is loaded' },
  {
    name: 'burst_p50_ms',
    unit: 'ms',
    description:
      'median time for a burst of burst.requests simultaneous requests to be answered (ab\'s "time per request")',
  },
  { name: 'burst_max_ms', unit: 'ms', description: 'slowest burst' },
  {
    name: 'burst_first_p50_ms',
    unit: 'ms',
    description: 'median over the bursts of the time to the first answer of each burst',
  },
  {
    name: 'burst_fast_p50_ms',
    unit: 'ms',
    description: 'with burst.fast: median time of the GET /fast sent 50 ms into each burst, on a new connection',
  },
  { name: 'event_loop_delay_mean_ms', unit: 'ms', description: 'mean event-loop delay of the server processes' },
  { name: 'event_loop_delay_p99_ms', unit: 'ms', description: 'p99 event-loop delay of the server processes' },
  {
    name: 'warmup_drain_ms',
    unit: 'ms',
    description:
      'wait, after the warm-up, for its requests still in flight to finish; the measured period opens after it',
  },
  {
    name: 'requests_served',
    unit: '',
    description:
      'GET /work requests whose work the server finished in the measured period, the window of its CPU counters (cpu_total_ms ÷ requests_served: CPU time per response); empty with app',
  },
  { name: 'loader_cpus', unit: 'CPUs', description: 'CPU quota of the load generator' },
  { name: 'loader_cpuset', unit: '', type: 'text', description: 'CPUs the load generator was pinned to' },
  {
    name: 'loader_shared',
    unit: '',
    type: 'boolean',
    description:
      "the load generator could run on the server's CPUs (the host had none to spare beyond the cell's budget, or loader.cpuset said so): read loader_cpu_ms beside the server's numbers",
  },
  {
    name: 'loader_saturated',
    unit: '',
    type: 'boolean',
    description: 'the load generator, not the server, was the limit',
  },
  {
    name: 'arrival_rate',
    unit: 'req/s',
    description:
      "with load: open, the rate requests were sent at (open.rate, or the capacity search's rate for this run); empty for a closed loop",
  },
  {
    name: 'send_lag_p99_ms',
    unit: 'ms',
    description:
      'with load: open, how late the load generator sent its requests (p99 of send time − due time); the latencies count it, since they run from the due time',
  },
  {
    name: 'loader_queued',
    unit: '',
    description: 'with load: open, requests that found every one of open.connections busy and waited for one',
  },
  {
    name: 'loader_behind',
    unit: '',
    type: 'boolean',
    description:
      'with load: open, true when the load generator did not keep its schedule (send_lag_p99_ms over 2 ms, a request waited for a connection, or the loader was saturated): the run is not counted. Decided on the generator alone, never on the latencies; empty for a closed loop',
  },
  {
    name: 'loader_cpu_ms',
    unit: 'ms',
    description:
      'CPU time the load generator used in the measured period (its one process, getrusage): with loader_shared, what it took from CPUs the server could have used, which the capacity model counts as taken from them',
  },
];

// The latency percentiles, in the order report.html's percentile chart draws them.
export const latencyPercentiles = [
  ['p50', 'latency_p50_ms'],
  ['p90', 'latency_p90_ms'],
  ['p99', 'latency_p99_ms'],
  ['p99.9', 'latency_p999_ms'],
  ['max', 'latency_max_ms'],
];

export const primaryMetrics = [
  { column: 'requests_per_sec', better: 'higher', label: 'throughput' },
  { column: 'latency_p99_ms', better: 'lower', label: 'p99 latency' },
];

/** The argon2 work needs its addon to load in this Node.js (see argon2.js). */
export function assertRunnable({ work }) {
  if (work === 'argon2') assertArgon2Runnable();
}

/**
 * With `app`, the user's module: checked by the preflight before the matrix starts
 * (runner/docker/runs/preflight-user-code.js).
 */
export const userCode = { kind: 'app', at: ['app'] };

const APP_DEFAULTS = Object.fromEntries(
  Object.entries(params.app.properties)
    .filter(([, schema]) => 'default' in schema)
    .map(([key, schema]) => [key, schema.default]),
);

/**
 * With `app`: its defaults filled, its file as seen inside the container, and the mount of its folder. With `start`:
 * its defaults filled and the mount of the service's folder (http-start.js).
 */
export function toContainer(filled, { configDir }) {
  if (filled.start !== undefined) return startToContainer(filled, { configDir });
  if (!filled.app) return { params: filled, mounts: [] };
  const { hostRoot, containerFile } = resolveUserFile(filled.app, configDir);
  const { root, ...app } = { ...APP_DEFAULTS, ...filled.app };
  return { params: { ...filled, app: { ...app, file: containerFile } }, mounts: [toUserMount(hostRoot)] };
}

/** Issues with paths relative to params.http, for values with the defaults filled in. */
export function checkParams(filled, host, { configDir } = {}) {
  return [
    ...checkUserFile(filled.app, configDir, { at: ['app'] }),
    ...checkAppLoad(filled),
    ...checkServer(filled),
    ...checkFastProbe(filled),
    ...checkOpenLoad(filled),
    ...(checkPbkdf2({ digest: filled.pbkdf2?.digest }) ?? []).map((issue) => ({
      ...issue,
      path: ['pbkdf2', ...issue.path],
    })),
    ...checkLoader(filled.loader, host),
    ...checkStartParams(filled, { configDir }),
  ];
}

/** A start command refuses the axes that need the lab's harness (http-start.js). */
export function checkCell(values, params) {
  return checkStartCell(values, params);
}

const WORK_GROUPS = ['pbkdf2', 'argon2', 'spin', 'template'];

/**
 * Keys written that nothing reads (valid, so a warning): the lab's work beside your `app`, another work's group
 * than `work`'s, `burst` without `load: burst`. `written`: params.http as written; `filled`: with the defaults.
 */
export function findIgnoredParams(written, filled) {
  const own = written.app ? 'app' : written.start !== undefined ? 'start' : null;
  if (own) {
    return ['work', ...WORK_GROUPS, 'fault']
      .filter((key) => key in written)
      .map((key) => ({
        path: [key],
        message: `\`${key}\` is ignored beside \`${own}:\`: your ${own === 'app' ? 'app' : 'service'} answers the requests, the lab's work never runs`,
        hint: `remove \`${key}:\``,
      }))
      .concat(findIgnoredStartKeys(written), findIgnoredLoadKeys(written, filled));
  }
  return [
    ...findIgnoredStartKeys(written),
    ...WORK_GROUPS.filter((key) => key in written && key !== filled.work).map((key) => ({
      path: [key],
      message: `\`${key}:\` is ignored: \`work\` is ${filled.work}${'work' in written ? '' : ' (the default)'}`,
      hint: `remove \`${key}:\`, or set \`work: ${key}\``,
    })),
    ...findIgnoredLoadKeys(written, filled),
  ];
}

// `open:` and `burst:` are read only with their `load`.
function findIgnoredLoadKeys(written, filled) {
  return ['open', 'burst']
    .filter((key) => key in written && filled.load !== key)
    .map((key) => ({
      path: [key],
      message: `\`${key}:\` is ignored: \`load\` is ${filled.load}`,
      hint: `remove \`${key}:\`, or set \`load: ${key}\``,
    }));
}

// Bursts open a fresh connection per request and send a bare GET (http/burst.js).
function checkAppLoad({ app, load }) {
  if (!app || load !== 'burst') return [];
  if ((app.method ?? 'GET') === 'GET' && !app.body) return [];
  return [
    {
      path: ['app', 'method'],
      message: `expected GET without a body for \`load: burst\`, found ${app.method ?? 'GET'}${app.body ? ' with a body' : ''}`,
      hint: 'use `load: loop` for this route, or load a GET route in bursts',
    },
  ];
}

// An open loop needs its rate; autocannon's `rate` and `connections` belong to the closed loop.
function checkOpenLoad({ load, open, rate }) {
  if (load !== 'open') return [];
  const issues = [];
  if (open?.rate === undefined)
    issues.push({
      path: ['open', 'rate'],
      message: 'expected a rate with `load: open`, found none',
      hint: 'write e.g. `open: {rate: 200}` (requests per second)',
    });
  if (rate !== undefined)
    issues.push({
      path: ['rate'],
      message: "expected no `rate` with `load: open`: it is autocannon's closed-loop pace",
      hint: 'move it to `open: {rate: …}`',
    });
  return issues;
}

// Your app is its own server: a server choice beside it would be silently unused.
function checkServer({ app, server }) {
  if (!app || server !== 'fastify') return [];
  return [
    {
      path: ['server'],
      message: 'expected no `server` with `app`, found fastify',
      hint: 'remove `server:` (your app is its own server: build it with Fastify in your module if you want Fastify)',
    },
  ];
}

// The probe needs the lab's GET /fast and some load beside it; otherwise it would be silently left out.
function checkFastProbe({ fastProbe, app, load }) {
  if (fastProbe !== true) return [];
  if (app)
    return [
      {
        path: ['fastProbe'],
        message: 'expected no `fastProbe` with `app`, found true',
        hint: "remove `fastProbe:` (your app has no GET /fast of the lab's)",
      },
    ];
  if (load === 'idle')
    return [
      {
        path: ['fastProbe'],
        message: 'expected no `fastProbe` with `load: idle`, found true',
        hint: "remove `fastProbe:` (idle sends no request at all, the probe's neither)",
      },
    ];
  return [];
}

function checkLoader(loader, host) {
  if (!host || typeof loader !== 'object' || loader === null) return [];
  const issues = [];
  if (typeof loader.cpus === 'number' && loader.cpus > host.cpus) {
    issues.push({
      path: ['loader', 'cpus'],
      message: `expected at most ${host.cpus} (this host's CPU count), found ${loader.cpus}`,
      hint: 'write e.g. `loader: {cpus: 1}`',
    });
  }
  if (typeof loader.cpuset === 'string' && loader.cpuset !== 'auto' && loader.cpuset !== 'none') {
    issues.push(...checkCpuset(loader.cpuset, ['loader', 'cpuset'], host));
  }
  return issues;
}

// The capacity model. Our own work: c = CPU time of one response, the folder's median per run of the window's
// CPU time over the responses it paid for. A window pays for more than its answers: the warm-up's closed loop
// leaves every connection's request in flight (its answer is not counted, its work is), so a saturated window
// holds c · (answers + connections) of CPU; the /fast probe (≈ 100 trivial requests a second) is not counted
// (a small share even of 0.5 CPU). S = the CPUs the work can use: min(threads that run it × lanes, usable CPUs).
// Loop: throughput = (S · window / c − leftovers) / window; a request waits behind every other connection's
// (Little's law: connections / throughput), and the window's first ones behind the leftovers too, which is
// what its p99 shows while they are more than 1% of the answers. Burst: N requests in waves over those
// threads; the first burst waits for the leftovers. Your app: the ideal, the least parallel cell scaled by
// min(processes × threads, CPUs).
const isOnPool = ({ work, pbkdf2 }) => work === 'argon2' || (work === 'pbkdf2' && !pbkdf2.sync);

// Requests whose work a measured window pays for but whose answers it does not count: the warm-up's (a closed
// loop whatever the load, so for bursts too) — in folders made before the window waited for them to drain.
// Those folders' params have no `fastProbe` (it came with the drain); every later window opens with none in flight.
function countLeftovers({ warmup, rate, connections, pipelining, fastProbe }) {
  if (fastProbe !== undefined) return 0;
  return warmup > 0 && rate === undefined ? connections * pipelining : 0;
}

// Requests' work per thread that can run it, when `requests` arrive at once (dealt over processes like tasks).
function listRequestLoads({ params, pool, workers, cluster }, requests) {
  return isOnPool(params)
    ? listPoolLoads({ tasks: requests, pool, cluster })
    : listThreadLoads({ tasks: requests, workers, cluster });
}

function predictOwnWork(cell, responseMs) {
  const { params, cpus } = cell;
  const share = { cpus, width: params.work === 'argon2' ? params.argon2.parallelism : 1 };
  const leftovers = countLeftovers(params);
  if (params.load === 'burst') {
    const { requests, rounds } = params.burst;
    const { first, last } = shareCpus(listRequestLoads(cell, requests), share);
    const burstMs = responseMs * last;
    // The leftovers' work, less the half of a request each running thread has done on average at the cut.
    const leftoverMs = leftovers ? responseMs * (shareCpus(listRequestLoads(cell, leftovers), share).last - 0.5) : 0;
    // Under 100 bursts, the first burst's answers (behind the leftovers) are more than 1% of them: the p99.
    const firstBurstIsTail = rounds < 100;
    return {
      requests_per_sec: ((rounds * requests) / (rounds * burstMs + leftoverMs)) * 1000,
      latency_p99_ms: burstMs + (firstBurstIsTail ? leftoverMs : 0),
      burst_p50_ms: burstMs,
      burst_first_p50_ms: responseMs * first,
    };
  }
  if (params.load === 'open') return predictOpenLoop(cell, responseMs, share);
  const inFlight = params.connections * params.pipelining;
  const running = listRequestLoads(cell, inFlight).filter((load) => load > 0).length;
  const usable = Math.min(running * share.width, cpus);
  const saturated = Math.max(0, (usable * params.duration * 1000) / responseMs - leftovers) / params.duration;
  const perSecond = params.rate === undefined ? saturated : Math.min(params.rate, saturated);
  if (perSecond < saturated)
    return { requests_per_sec: perSecond, latency_p99_ms: responseMs / Math.min(share.width, cpus) };
  // The answer at the 99th percentile waits behind this many requests: the window's first ones queue behind
  // the leftovers and each other; every later one behind the other connections' requests.
  const ahead = Math.max(inFlight, leftovers + inFlight - (perSecond * params.duration) / 100);
  return { requests_per_sec: perSecond, latency_p99_ms: (ahead / perSecond) * 1000 };
}

// As many requests as any pool or process count here could run at once: every thread that can run the work.
const ANY_LOAD = 1024;

// An open loop at `open.rate`: an M/D/1 queue whose server is every thread that can run the work at once (the usable
// CPUs' worth), so a response's turn comes D / usable apart; its own work still takes D. Exact for one thread on one
// CPU (bench:latency checks it), a fair reading for more (an M/D/c queue waits less). Past the capacity the queue
// grows without bound: the rate is the capacity's and there is no p99 to predict.
function predictOpenLoop(cell, responseMs, share) {
  const running = listRequestLoads(cell, ANY_LOAD).filter((load) => load > 0).length;
  const turnMs = responseMs / Math.min(running * share.width, share.cpus);
  const queue = { rate: cell.params.open.rate / 1000, serviceMs: turnMs };
  if (queue.rate * turnMs >= 1) return { requests_per_sec: 1000 / turnMs };
  return {
    requests_per_sec: cell.params.open.rate,
    latency_p99_ms: responseQuantile(0.99, queue) - turnMs + responseMs,
  };
}

const countAppThreads = ({ workers, cluster }) => Math.max(1, cluster) * Math.max(1, workers);

export const model = {
  calibration(params) {
    if (params.load === 'idle') return null;
    if (params.app) return { kind: 'lowest', parallelism: countAppThreads };
    // A start command's parallelism is its own code's: the ideal, as for a command.
    if (params.start !== undefined) return { kind: 'lowest', parallelism: () => Infinity };
    // requests_served: the server's own count of the window's answers (since the drain); before it, the loader's rate.
    // Per `workers` value: with worker threads each request costs a message there and back besides its work, which
    // a page render pays as much as the render itself (template-offload-80: 80–120 µs a response on the event loop,
    // 150–180 µs offloaded), so one median over both would fit neither.
    return {
      kind: 'sample',
      per: ['workers'],
      sample: (run, { params: own }) =>
        run.cpu_total_ms /
        (Number.isFinite(run.requests_served)
          ? run.requests_served
          : (run.requests_per_sec * run.wall_ms) / 1000 + countLeftovers(own)),
    };
  },
  predict(cell, calibration) {
    if (calibration.kind === 'sample') return predictOwnWork(cell, calibration.value);
    const threads = (shape) => (shape.params?.start === undefined ? countAppThreads(shape) : Infinity);
    const gain = Math.min(threads(cell), cell.cpus) / Math.min(threads(calibration.base), calibration.base.cpus);
    const { requests_per_sec: rate, latency_p99_ms: p99 } = calibration.medians;
    return {
      ...(rate === undefined ? {} : { requests_per_sec: rate * gain }),
      ...(p99 === undefined ? {} : { latency_p99_ms: p99 / gain }),
    };
  },
  describe: (calibration) =>
    calibration.kind === 'sample'
      ? `CPU time of one response ${calibration.value.toPrecision(3)} ms`
      : 'ideal: the least parallel cell scaled by min(processes × threads, CPUs) (a start command: by the CPUs)',
};
