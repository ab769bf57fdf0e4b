// The load generator's run, in the loader container that shares the server's network namespace:
// wait for the server (bounded) → check its answers → warm up (not counted) → POST /__lab/start (the
// server first finishes the warm-up's requests still in flight, drain.js) → measure: autocannon's closed loop on
// GET /work, or the open loop at a fixed arrival rate (open-loop.js), and with `fastProbe` a light probe on GET /fast
// → POST /__lab/stop → numbers, with the answers second by second.

import os from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import autocannon from 'autocannon';
import { WorkloadError } from '../workload-error.js';
import { diffCgroupCounters, readCgroupSnapshot } from '../probe/cgroup.js';
import { round } from '../result.js';
import { APP_PORT, CONTROL, FAST_BODY, FAST_PATH, WORK_PATH, appUrl, controlUrl } from './endpoints.js';
import { lowerMedian, runBursts, summarizeRounds } from './burst.js';
import { DRAIN_TIMEOUT_MS } from './drain.js';
import { requestOnce } from './request-once.js';
import { createLatencyRecorder, createSecondSeries } from './latency.js';
import { runOpenLoop } from './open-loop.js';
import { judgeLoaderSaturation, judgeOpenLoop } from './saturation.js';
import { prepareWork } from './work.js';

export const READY_TIMEOUT_MS = 60_000;
// A start command gets `readyTimeout` to answer; the loader waits that long and a little more for the control port.
const READY_POLL_MS = 100;
// The fast-route probe: one connection, a steady 100 requests per second, so it adds little load
// and its p99 says how long a trivial request waits while the server is busy.
const FAST_PROBE = { connections: 1, overallRate: 100 };
const CONTROL_TIMEOUT_MS = 30_000;
// autocannon ends a run at the first sample tick after `duration`; with its default 1 s ticks a 2 s run
// could last 3 s. 100 ms ticks keep the measured period within 0.1 s of what was asked.
const SAMPLE_MS = 100;
const BURST_PROBE_MAX_S = 3600;
// How long an open loop waits for its last answers after the last request was due; later ones are timeouts.
const OPEN_GRACE_MS = 10_000;
// The warm-up's last answers are not counted: the server drains whatever is still in flight (drain.js).
const OPEN_WARMUP_GRACE_MS = 1000;

/** @param {import('../spec.js').Spec} spec  the server's spec: the loader reads params.http from it */
export async function runLoad(spec, { log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const { params } = spec;
  await waitForServer(params.start ? Math.max(READY_TIMEOUT_MS, (params.readyTimeout + 10) * 1000) : READY_TIMEOUT_MS);
  await verifyServer(params);
  if (params.warmup > 0) {
    log(`warm-up: ${params.warmup} s`);
    if (params.load === 'open') await runOpenLoop(openOptions(params, params.warmup, OPEN_WARMUP_GRACE_MS));
    else await autocannon(loadOptions(params, params.warmup));
  }
  // Answered once the server has drained the warm-up: up to DRAIN_TIMEOUT_MS.
  await callControl(CONTROL.start, DRAIN_TIMEOUT_MS + CONTROL_TIMEOUT_MS);
  const before = readCgroupSnapshot();
  const cpuBefore = process.cpuUsage();
  const began = performance.now();
  const work = createLatencyRecorder();
  const fast = createLatencyRecorder();
  const series = createSecondSeries();
  const [main, probe] = await measureLoad(params, { work, fast, series, began });
  const periodMs = performance.now() - began;
  const counters = diffCgroupCounters(before, readCgroupSnapshot());
  const cpu = process.cpuUsage(cpuBefore);
  await callControl(CONTROL.stop);

  const latency = work.summarize();
  const requestsPerSec = main.duration > 0 ? main.requests.total / main.duration : 0;
  // getrusage, not the cgroup: cgroup v1 splits CPU time into user/system by sampling at timer ticks,
  // which reads about half the real time for a process that wakes and sleeps as often as a loader does.
  // The loader is the only process of its container, so its own time is the container's.
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const saturation = judgeLoaderSaturation({
    periodMs,
    cpuMs,
    allowanceCpus: readAllowanceCpus(before),
    throttledMs: counters.throttledMs,
    requestsPerSec,
    // Requests in flight only say something of a closed loop: in a burst they drain by design.
    meanLatencyMs: params.load === 'loop' ? latency.mean : null,
    connections: params.load === 'burst' ? params.burst.requests : params.connections,
    pipelining: params.load === 'burst' ? 1 : params.pipelining,
    rate: params.rate,
  });
  if (saturation.saturated) log(`the load generator was the limit: ${saturation.reasons.join('; ')}`);
  const schedule =
    params.load === 'open'
      ? judgeOpenLoop({
          saturation,
          lagP99Ms: main.lag.p99,
          queued: main.queued,
          connections: params.open.connections,
          maxLagMs: params.open.max_lag_ms,
        })
      : null;
  if (schedule?.behind) log(`the load generator fell behind its schedule: ${schedule.reasons.join('; ')}`);
  return buildLoaderResult({
    periodMs,
    requestsPerSec,
    latency,
    main,
    fast: fast.summarize(),
    probe,
    cpuMs,
    counters,
    saturation,
    schedule,
    seconds: series.summarize(),
  });
}

/**
 * The measured period: a closed loop of `connections` for `duration` s (autocannon), `burst.rounds` bursts
 * of `burst.requests` simultaneous requests (burst.js), or `duration` s of nothing (the idle baseline). With
 * `fastProbe`, the /fast probe runs beside a loop or bursts, for as long as they last; idle means no request at all.
 */
async function measureLoad(params, { work, fast, series, began }) {
  const probeOptions = { url: appUrl(FAST_PATH), ...FAST_PROBE, sampleInt: SAMPLE_MS, ignoreCoordinatedOmission: true };
  // Off unless asked for (its CPU time would be in the period, its answers not among the responses); a
  // user's app has no /fast route of ours. No probe: fast_route_* stay empty.
  const startProbe = (duration) =>
    params.fastProbe && !userRoute(params)
      ? track(autocannon({ ...probeOptions, duration }), fast)
      : { errors: 0, non2xx: 0, stop() {} };
  if (params.load === 'idle') {
    await delay(params.duration * 1000);
    const nothing = {
      duration: params.duration,
      requests: { total: 0 },
      throughput: { total: 0 },
      errors: 0,
      timeouts: 0,
      non2xx: 0,
    };
    return [nothing, nothing];
  }
  if (params.load === 'loop') {
    return Promise.all([
      track(autocannon(loadOptions(params, params.duration)), work, { series, began }),
      startProbe(params.duration),
    ]);
  }
  if (params.load === 'open') {
    // The probe's duration is only an upper bound, as for bursts: it is stopped when the last answer is in.
    const probe = startProbe(params.duration + OPEN_GRACE_MS / 1000);
    const main = await runOpenLoop({
      ...openOptions(params, params.duration, OPEN_GRACE_MS),
      recorder: work,
      series,
    });
    probe.stop();
    return [main, await probe];
  }
  // The probe's duration is only an upper bound: it is stopped when the last burst is answered.
  const probe = startProbe(BURST_PROBE_MAX_S);
  const route = userRoute(params);
  const url = route ? appUrl(route.path, route.port) : appUrl(WORK_PATH);
  const fastPath = params.burst.fast && !route ? FAST_PATH : undefined;
  const main = await runBursts({
    url,
    requests: params.burst.requests,
    rounds: params.burst.rounds,
    recorder: work,
    fastPath,
  });
  probe.stop();
  return [main, await probe];
}

/** The loader's result line: the http columns it measures (workloads/http.js `columns`) and its own health. */
export function buildLoaderResult({
  periodMs,
  requestsPerSec,
  latency,
  main,
  fast,
  probe,
  cpuMs,
  counters,
  saturation,
  schedule = null,
  seconds = [],
}) {
  return {
    workload: 'http',
    role: 'loader',
    wall_ms: round(periodMs),
    tasks: [],
    metrics: {
      requests_per_sec: round(requestsPerSec),
      latency_p50_ms: roundOrNull(latency.p50),
      latency_p90_ms: roundOrNull(latency.p90),
      latency_p99_ms: roundOrNull(latency.p99),
      latency_p999_ms: roundOrNull(latency.p999 ?? null),
      latency_max_ms: roundOrNull(latency.max),
      throughput_bytes_per_sec: round(main.duration > 0 ? main.throughput.total / main.duration : 0),
      errors: main.errors,
      timeouts: main.timeouts,
      non2xx: main.non2xx,
      fast_route_p50_ms: roundOrNull(fast.p50),
      fast_route_p99_ms: roundOrNull(fast.p99),
      ...summarizeBursts(main),
      loader_saturated: saturation.saturated,
      loader_cpu_ms: round(cpuMs),
      ...describeOpenLoop(main, schedule),
    },
    // GET /work's answers second by second (by due time, or send time for a closed loop): tasks.csv's rows.
    seconds: seconds.map((second) => ({
      ...second,
      p50_ms: roundOrNull(second.p50_ms),
      p99_ms: roundOrNull(second.p99_ms),
      max_ms: roundOrNull(second.max_ms),
    })),
    loader: {
      cpu_ms: round(cpuMs),
      throttled_ms: counters.throttledMs === null ? null : round(counters.throttledMs),
      fast_route_errors: probe.errors + probe.non2xx,
      saturation,
    },
  };
}

// The open loop's own columns; empty for any other load.
function describeOpenLoop(main, schedule) {
  if (!schedule) return { arrival_rate: null, send_lag_p99_ms: null, loader_queued: null, loader_behind: null };
  return {
    arrival_rate: main.rate,
    send_lag_p99_ms: roundOrNull(main.lag.p99),
    loader_queued: main.queued,
    loader_behind: schedule.behind,
  };
}

// Burst columns stay empty for a closed-loop run: there were no bursts to time.
function summarizeBursts({ roundsMs, firstMs, fastMs }) {
  if (!roundsMs) return { burst_p50_ms: null, burst_max_ms: null, burst_first_p50_ms: null, burst_fast_p50_ms: null };
  const { p50, max } = summarizeRounds(roundsMs);
  return {
    burst_p50_ms: roundOrNull(p50),
    burst_max_ms: roundOrNull(max),
    burst_first_p50_ms: roundOrNull(lowerMedian(firstMs)),
    burst_fast_p50_ms: roundOrNull(lowerMedian(fastMs)),
  };
}

function loadOptions(params, duration) {
  return {
    ...(userRoute(params) ? toRequest(userRoute(params)) : { url: appUrl(WORK_PATH) }),
    connections: params.connections,
    pipelining: params.pipelining,
    duration,
    sampleInt: SAMPLE_MS,
    // autocannon's coordinated-omission correction assumes 1 ms between requests whatever the rate;
    // response times are kept as measured.
    ...(params.rate === undefined ? {} : { overallRate: params.rate, ignoreCoordinatedOmission: true }),
  };
}

/** The open loop's options for `duration` s: the route, its rate and arrivals, its most connections. */
function openOptions(params, duration, graceMs) {
  const route = userRoute(params);
  const { url, ...request } = route ? toRequest(route) : { url: appUrl(WORK_PATH) };
  const target = new URL(url);
  return {
    origin: target.origin,
    request: { ...request, path: `${target.pathname}${target.search}` },
    rate: params.open.rate,
    arrivals: params.open.arrivals,
    durationMs: duration * 1000,
    connections: params.open.connections,
    graceMs,
  };
}

/**
 * The autocannon instance (a thenable for its result), with every response time recorded, and with `series` by the
 * second it was sent in (its answer's time less its response time, since `began`).
 */
function track(instance, recorder, { series, began } = {}) {
  instance.on('response', (_client, _status, _bytes, responseTime) => {
    recorder.record(responseTime);
    series?.record(performance.now() - began - responseTime, responseTime);
  });
  return instance;
}

/** GET /__lab/ready until it answers: the primary opens the control port once every process listens. */
async function waitForServer(timeoutMs) {
  const deadline = performance.now() + timeoutMs;
  let last;
  while (performance.now() < deadline) {
    try {
      const response = await fetch(controlUrl(CONTROL.ready), { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
      last = `status ${response.status}`;
    } catch (error) {
      last = error.cause?.code ?? error.message;
    }
    await delay(READY_POLL_MS);
  }
  throw new WorkloadError(
    'ERR_SERVER_NOT_READY',
    `the server did not answer ${controlUrl(CONTROL.ready)} within ${timeoutMs / 1000} s (last: ${last})`,
  );
}

/**
 * The user's route, or null for the lab's own server: your app's (on the app port), or the `request` a start
 * command's service is sent (on its own `port`).
 */
export function userRoute(params) {
  if (params.app) return { ...params.app, port: APP_PORT, who: 'your app' };
  if (params.start) return { ...params.request, port: params.port, who: 'your service' };
  return null;
}

/** The user's route as autocannon and requestOnce both take it. */
function toRequest({ path, method, headers, body, port }) {
  return { url: appUrl(path, port), method, headers, ...(body === '' ? {} : { body }) };
}

/** A server that answers wrongly must fail the run, not produce a number. */
async function verifyServer(params) {
  const route = userRoute(params);
  if (route) {
    await expectStatus(route);
    return;
  }
  const expected = await (await prepareWork(params))();
  await expectAnswer(WORK_PATH, expected);
  await expectAnswer(FAST_PATH, FAST_BODY);
}

async function expectAnswer(path, expected) {
  const { status, body } = await requestOnce(appUrl(path), { timeoutMs: CONTROL_TIMEOUT_MS });
  if (status !== 200) {
    throw new WorkloadError(
      'ERR_SERVER_WRONG',
      `the server answered GET ${path} with status ${status} (expected 200): ${preview(body)}`,
    );
  }
  if (body !== expected) {
    throw new WorkloadError(
      'ERR_SERVER_WRONG',
      `the server answered GET ${path} with a wrong body: expected ${preview(expected)}, got ${preview(body)}`,
    );
  }
}

/** A user's app or service: the status it was told to expect; its body is theirs to know. */
async function expectStatus(route) {
  const { url, ...init } = toRequest(route);
  const { status, body } = await requestOnce(url, { ...init, timeoutMs: CONTROL_TIMEOUT_MS });
  if (status !== route.status) {
    throw new WorkloadError(
      'ERR_SERVER_WRONG',
      `${route.who} answered ${route.method} ${route.path} with status ${status} (expected ${route.status}): ${preview(body)}`,
    );
  }
}

async function callControl(path, timeoutMs = CONTROL_TIMEOUT_MS) {
  const response = await fetch(controlUrl(path), { method: 'POST', signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok)
    throw new WorkloadError('ERR_CONTROL', `POST ${path} answered ${response.status}: ${await response.text()}`);
}

/** CPUs the loader's container may use: its quota, within its cpuset (availableParallelism honours the cpuset). */
function readAllowanceCpus(cgroup) {
  return Math.min(cgroup.cpuQuota ?? Infinity, os.availableParallelism());
}

function preview(text) {
  const shown = text.length > 40 ? `${JSON.stringify(text.slice(0, 40))}…` : JSON.stringify(text);
  return `${Buffer.byteLength(text)} bytes ${shown}`;
}

function roundOrNull(value) {
  return value === null ? null : round(value);
}
