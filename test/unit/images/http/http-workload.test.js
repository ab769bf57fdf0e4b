import { fillAllParams } from '../../../../runner/domain/workloads.js';
import { validateConfig } from '../../../../runner/config/validate.js';
import { parseSpec } from '../../../../images/workload/spec.js';
import { combineLoopDelays } from '../../../../images/workload/http/event-loop.js';
import { createLatencyRecorder, createSecondSeries } from '../../../../images/workload/http/latency.js';
import { judgeLoaderSaturation } from '../../../../images/workload/http/saturation.js';
import { pickLeastBusy } from '../../../../images/workload/http/worker-pool.js';
import { prepareWork } from '../../../../images/workload/http/work.js';

const host = { cpus: 2, cpuIds: [0, 1] };

describe('http params', () => {
  test('object parameters take their defaults key by key, in the runner and in the image alike', () => {
    const filled = fillAllParams({ http: { work: 'spin', pbkdf2: { iterations: 5 }, loader: { cpus: 0.5 } } }).http;
    expect(filled.pbkdf2).toEqual({ iterations: 5, keylen: 64, digest: 'sha512', sync: false });
    expect(filled.loader).toEqual({ cpus: 0.5, cpuset: 'auto' });
    expect(filled).not.toHaveProperty('rate', expect.anything());
    // The /fast probe is off unless asked for: its CPU time is not a response's.
    expect(filled.fastProbe).toBe(false);
    const { params } = parseSpec(JSON.stringify({ workload: 'http', params: filled }));
    expect(params).toMatchObject({
      work: 'spin',
      pbkdf2: filled.pbkdf2,
      loader: filled.loader,
      duration: 10,
      warmup: 3,
    });
  });

  test.each([
    [{ work: 'scrypt' }, /params\.http\.work: expected one of `pbkdf2`, `argon2`/],
    [{ pbkdf2: { iteration: 5 } }, /unknown key `iteration` \(did you mean `iterations`\?\)/],
    [{ pbkdf2: { digest: 'sha513' } }, /params\.http\.pbkdf2\.digest/],
    [{ loader: { cpus: 3 } }, /params\.http\.loader\.cpus: expected at most 2/],
    [{ loader: { cpuset: '5' } }, /params\.http\.loader\.cpuset: CPU 5 does not exist/],
    [{ rate: 0 }, /params\.http\.rate: /],
    [
      { server: 'fastify', app: { file: 'app.js' } },
      /params\.http\.server: expected no `server` with `app`, found fastify/,
    ],
    [
      { fastProbe: true, app: { file: 'app.js' } },
      /params\.http\.fastProbe: expected no `fastProbe` with `app`, found true/,
    ],
    [
      { fastProbe: true, load: 'idle' },
      /params\.http\.fastProbe: expected no `fastProbe` with `load: idle`, found true/,
    ],
    [{ fastProbe: 'yes' }, /params\.http\.fastProbe: /],
  ])('the config check refuses %j', (http, where) => {
    const raw = { experiments: { e: { matrix: { workload: ['http'] }, params: { http } } } };
    let error;
    try {
      validateConfig(raw, { file: 'x.yml', host });
    } catch (caught) {
      error = caught;
    }
    expect((error.errors ?? [error]).map((each) => `${each.path}: ${each.message}`).join('\n')).toMatch(where);
  });

  test.each([
    [{ work: 'scrypt' }, /params\.work: expected one of pbkdf2, argon2, spin/],
    [{ spin: { ms: '5' } }, /params\.spin\.ms: expected a number/],
    [{ connections: 0 }, /params\.connections: expected a whole number ≥ 1/],
    [{ listen: 80 }, /params\.listen: not a parameter of http/],
  ])('the image refuses %j', (params, message) => {
    expect(() => parseSpec(JSON.stringify({ workload: 'http', params }))).toThrow(message);
  });
});

describe('http work', () => {
  test('every kind gives the same body every time, so the loader can check it', async () => {
    for (const work of ['none', 'spin', 'pbkdf2', 'template']) {
      const { params } = parseSpec(
        JSON.stringify({
          workload: 'http',
          params: { work, spin: { ms: 1 }, pbkdf2: { iterations: 10 }, template: { rows: 3 } },
        }),
      );
      const run = await prepareWork(params);
      const first = await run();
      expect(await run()).toBe(first);
      expect(first.length).toBeGreaterThan(0);
    }
  });

  test('template size grows with rows and escapes the data', async () => {
    const render = async (rows) => (await prepareWork({ work: 'template', template: { rows } }))();
    const small = await render(10);
    expect((await render(100)).length).toBeGreaterThan(small.length * 5);
    expect(small).toContain('&lt;1&gt;');
  });
});

describe('the app server: node:http or Fastify, the same routes and answers', () => {
  test.each(['node', 'fastify'])(
    '%s: GET /work does the work, GET /fast answers at once, anything else is 404; a fault changes the answer',
    async (kind) => {
      const { startAppServer } = await import('../../../../images/workload/http/app.js');
      const { FAST_BODY } = await import('../../../../images/workload/http/endpoints.js');
      const run = await prepareWork(
        fillAllParams({ http: { work: 'template', template: { rows: 3, page: 'loves' } } }).http,
      );
      for (const [fault, status, suffix] of [
        ['none', 200, ''],
        ['wrong-body', 200, ' (deliberately wrong)'],
        ['wrong-status', 500, ''],
      ]) {
        const server = await startAppServer({ run, fault, server: kind, port: 0 });
        const base = `http://127.0.0.1:${server.address().port}`;
        try {
          const work = await fetch(`${base}/work`);
          expect(work.status).toBe(status);
          expect(work.headers.get('content-type')).toBe('text/plain; charset=utf-8');
          expect(await work.text()).toBe(`${run()}${suffix}`);
          const fast = await fetch(`${base}/fast`);
          expect([fast.status, await fast.text()]).toEqual([200, FAST_BODY]);
          expect((await fetch(`${base}/nothing`)).status).toBe(404);
        } finally {
          server.closeAllConnections();
          await new Promise((resolve) => server.close(resolve));
        }
      }
    },
  );

  test('a failing work answers 500 on both servers', async () => {
    const { startAppServer } = await import('../../../../images/workload/http/app.js');
    const server = await startAppServer({
      run: () => Promise.reject(new Error('boom')),
      fault: 'none',
      server: 'fastify',
      port: 0,
    });
    const write = process.stderr.write;
    process.stderr.write = () => true;
    try {
      const response = await fetch(`http://127.0.0.1:${server.address().port}/work`);
      expect([response.status, await response.text()]).toEqual([500, 'work failed']);
    } finally {
      process.stderr.write = write;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('http measurement helpers', () => {
  test('HDR percentiles of every response, to 0.1%, and an empty recorder gives nulls', () => {
    const recorder = createLatencyRecorder();
    for (let ms = 1; ms <= 10000; ms++) recorder.record(ms / 100);
    const summary = recorder.summarize();
    expect(summary.count).toBe(10000);
    expect(summary.mean).toBeCloseTo(50.005, 9);
    for (const [key, exact] of Object.entries({ p50: 50, p90: 90, p99: 99, p999: 99.9, max: 100 })) {
      expect(Math.abs(summary[key] / exact - 1)).toBeLessThanOrEqual(0.001);
    }
    expect(createLatencyRecorder().summarize()).toEqual({
      count: 0,
      mean: null,
      p50: null,
      p90: null,
      p99: null,
      p999: null,
      max: null,
    });
  });

  test('the second series: each response in the second it was due, empty seconds kept', () => {
    const series = createSecondSeries();
    series.record(10, 5);
    series.record(999, 7);
    series.record(2500, 40);
    const seconds = series.summarize();
    expect(seconds.map(({ second, requests }) => [second, requests])).toEqual([
      [1, 2],
      [2, 0],
      [3, 1],
    ]);
    expect(seconds[1]).toMatchObject({ p50_ms: null, p99_ms: null, max_ms: null });
    expect(Math.abs(seconds[2].p99_ms / 40 - 1)).toBeLessThanOrEqual(0.01);
  });

  test('cluster event-loop delays: tick-weighted mean, worst p99', () => {
    expect(
      combineLoopDelays([
        { count: 100, mean_ms: 1, p99_ms: 5 },
        { count: 300, mean_ms: 3, p99_ms: 20 },
        { count: 0, mean_ms: null, p99_ms: null },
      ]),
    ).toEqual({ mean_ms: 2.5, p99_ms: 20 });
    expect(combineLoopDelays([])).toEqual({ mean_ms: null, p99_ms: null });
  });

  test('least-busy dispatch picks the idlest thread and rotates ties', () => {
    const threads = [{ busy: 2 }, { busy: 0 }, { busy: 1 }];
    expect(pickLeastBusy(threads, 0)).toBe(threads[1]);
    const idle = [{ busy: 0 }, { busy: 0 }];
    expect(pickLeastBusy(idle, 1)).toBe(idle[1]);
  });
});

describe('judgeLoaderSaturation', () => {
  const reading = {
    periodMs: 2000,
    cpuMs: 600,
    allowanceCpus: 1,
    throttledMs: 0,
    requestsPerSec: 400,
    meanLatencyMs: 25,
    connections: 10,
    pipelining: 1,
  };

  test('a loader with CPU to spare that keeps every connection busy is not the limit', () => {
    expect(judgeLoaderSaturation(reading)).toMatchObject({
      saturated: false,
      reasons: [],
      cpu_share: 0.3,
      achieved_concurrency: 10,
      asked_concurrency: 10,
    });
  });

  test('CPU near what one thread can use, throttling, or too few requests in flight mark it', () => {
    expect(judgeLoaderSaturation({ ...reading, cpuMs: 1900 }).reasons).toEqual([
      'loader CPU at 95% of the 1 CPU it can use',
    ]);
    // autocannon has one thread: an allowance of 2 CPUs is still 1 usable.
    expect(judgeLoaderSaturation({ ...reading, cpuMs: 1900, allowanceCpus: 2 }).saturated).toBe(true);
    expect(judgeLoaderSaturation({ ...reading, cpuMs: 900, allowanceCpus: 0.5 }).saturated).toBe(true);
    expect(judgeLoaderSaturation({ ...reading, throttledMs: 400 }).reasons).toEqual([
      'loader throttled for 20% of the measured period',
    ]);
    expect(judgeLoaderSaturation({ ...reading, requestsPerSec: 20000, meanLatencyMs: 0.2 }).reasons).toEqual([
      'only 4.0 of 10 requests in flight on average',
    ]);
  });

  test('with a fixed rate: short of the rate with connections to spare', () => {
    expect(judgeLoaderSaturation({ ...reading, rate: 500, requestsPerSec: 300, meanLatencyMs: 2 }).reasons).toEqual([
      'sent 300 of the 500 req/s asked with connections to spare',
    ]);
    // Short of the rate because every connection waits on a slow server: the server's limit.
    expect(judgeLoaderSaturation({ ...reading, rate: 500, requestsPerSec: 300, meanLatencyMs: 33 }).saturated).toBe(
      false,
    );
  });
});

describe('spin work costs a fixed amount of CPU', () => {
  test('spins until the thread clock has advanced by ms, whatever the wall clock does', async () => {
    const { spinCpu } = await import('../../../../images/workload/http/work.js');
    // A fake thread clock advancing 0.5 ms per read: 5 ms of CPU take 10 reads past the first.
    let now = 0;
    let reads = 0;
    const clock = () => {
      reads += 1;
      now += 0.5e6;
      return now;
    };
    expect(spinCpu(clock, 5)).toBe('spun 5 ms');
    expect(reads).toBe(11);
  });

  test("the real thread clock: 20 ms of spin cost at least 20 ms of this thread's CPU", async () => {
    const { spinCpu } = await import('../../../../images/workload/http/work.js');
    const { chooseThreadCpuClock } = await import('../../../../images/workload/probe/thread-cpu.js');
    const clock = chooseThreadCpuClock();
    const before = clock();
    spinCpu(clock, 20);
    expect(clock() - before).toBeGreaterThanOrEqual(20e6);
  });

  test('without schedstat and without process.threadCpuUsage it refuses, naming both', async () => {
    const { chooseThreadCpuClock } = await import('../../../../images/workload/probe/thread-cpu.js');
    const missing = () => {
      throw new Error('ENOENT');
    };
    expect(() => chooseThreadCpuClock({ readSchedstat: missing, threadCpuUsage: undefined })).toThrow(
      /schedstat.*threadCpuUsage/,
    );
  });
});
