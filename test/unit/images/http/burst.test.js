// Burst load (ab -n N -c N): N requests at once on new connections, a burst timed until the last answer.
import http from 'node:http';
import { lowerMedian, runBursts, summarizeRounds } from '../../../../images/workload/http/burst.js';
import { createLatencyRecorder } from '../../../../images/workload/http/latency.js';

describe('runBursts', () => {
  let server;
  let url;
  const seen = { connections: 0, inFlight: 0, maxInFlight: 0 };

  beforeAll(async () => {
    // Each answer waits 30 ms, so the requests of a burst overlap if, and only if, they are sent at once.
    server = http.createServer((request, response) => {
      seen.inFlight += 1;
      seen.maxInFlight = Math.max(seen.maxInFlight, seen.inFlight);
      setTimeout(() => {
        seen.inFlight -= 1;
        response.end(request.url === '/missing' ? '' : 'done');
      }, 30);
    });
    server.on('connection', () => {
      seen.connections += 1;
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${server.address().port}/work`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  test('sends each burst at once, on a new connection per request, and times every burst', async () => {
    const recorder = createLatencyRecorder();
    const result = await runBursts({ url, requests: 4, rounds: 3, recorder });
    expect(result.roundsMs).toHaveLength(3);
    expect(result.requests.total).toBe(12);
    expect(result.throughput.total).toBe(12 * 'done'.length);
    expect(seen.maxInFlight).toBe(4);
    expect(seen.connections).toBe(12);
    expect(recorder.summarize().count).toBe(12);
    // A burst ends with its slowest answer, never before the 30 ms every answer takes.
    for (const ms of result.roundsMs) expect(ms).toBeGreaterThanOrEqual(29);
    expect(result.errors + result.timeouts + result.non2xx).toBe(0);
  });

  test("keeps each burst's first answer, and times a request to fastPath sent into each burst on its own connection", async () => {
    const recorder = createLatencyRecorder();
    const before = seen.connections;
    const result = await runBursts({ url, requests: 2, rounds: 3, recorder, fastPath: '/fast', fastAfterMs: 5 });
    expect(result.firstMs).toHaveLength(3);
    expect(result.fastMs).toHaveLength(3);
    for (const [index, ms] of result.firstMs.entries()) expect(ms).toBeLessThanOrEqual(result.roundsMs[index]);
    expect(seen.connections - before).toBe(3 * 3);
    // The fast request is not one of the burst's: it counts in no total.
    expect(result.requests.total).toBe(6);
    const plain = await runBursts({ url, requests: 1, rounds: 1, recorder });
    expect(plain.fastMs).toEqual([]);
  });

  test('a refused connection is an error, not a response', async () => {
    const recorder = createLatencyRecorder();
    const closed = http.createServer();
    await new Promise((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address();
    await new Promise((resolve) => closed.close(resolve));
    const result = await runBursts({ url: `http://127.0.0.1:${port}/work`, requests: 2, rounds: 1, recorder });
    expect(result).toMatchObject({ errors: 2, requests: { total: 0 } });
  });

  test('summarizeRounds: median (lower middle) and slowest burst', () => {
    expect(summarizeRounds([30, 10, 20, 40])).toEqual({ p50: 20, max: 40 });
    expect(summarizeRounds([])).toEqual({ p50: null, max: null });
    expect(lowerMedian([5, 1, 3, 2])).toBe(2);
    expect(lowerMedian([])).toBeNull();
  });
});

describe("the offload-rendering post's template", () => {
  test("page loves: the post's line repeated rows times, escaped like any mustache view", async () => {
    const { prepareTemplate } = await import('../../../../images/workload/http/template.js');
    const render = prepareTemplate({ rows: 80, page: 'loves' });
    const page = render();
    expect(page).toBe('<em>Fastify loves Node.js</em>'.repeat(80));
    expect(prepareTemplate({ rows: 2 })()).toContain('Catalogue of 2');
  });
});
