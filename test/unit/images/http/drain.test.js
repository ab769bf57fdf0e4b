// The warm-up drain (images/workload/http/drain.js): the measured period opens only once no GET /work is in
// flight and no connection to the app port is open; the loader's checks leave no connection behind.
import net from 'node:net';
import { startAppServer } from '../../../../images/workload/http/app.js';
import { countConnections, createRequestCounter, waitUntilIdle } from '../../../../images/workload/http/drain.js';
import { requestOnce } from '../../../../images/workload/http/request-once.js';

function createDeferred() {
  let resolve;
  let reject;
  const promise = new Promise((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  return { promise, resolve, reject };
}

describe('createRequestCounter', () => {
  test('counts a request until its work settles, answered or failed, and passes its result through', async () => {
    const counter = createRequestCounter();
    expect(counter.wrap(() => 'now')()).toBe('now');
    expect(counter.inFlight).toBe(0);

    const first = createDeferred();
    const second = createDeferred();
    const works = [first, second];
    const run = counter.wrap(() => works.shift().promise);
    const answered = run();
    const failed = run();
    expect(counter.inFlight).toBe(2);
    first.resolve('body');
    expect(await answered).toBe('body');
    expect(counter.inFlight).toBe(1);
    second.reject(new Error('boom'));
    await expect(failed).rejects.toThrow('boom');
    expect(counter.inFlight).toBe(0);

    expect(() =>
      counter.wrap(() => {
        throw new Error('sync boom');
      })(),
    ).toThrow('sync boom');
    expect(counter.inFlight).toBe(0);
  });
});

describe('waitUntilIdle', () => {
  // A clock that moves only when the drain sleeps: the wait it reports is the sum of its sleeps.
  const fakeTime = () => {
    let now = 0;
    return {
      now: () => now,
      sleep: async (ms) => {
        now += ms;
      },
    };
  };

  test('polls until no request is in flight and no connection is open, and says how long that took', async () => {
    const readings = [
      { requests: 3, connections: 0 },
      { requests: 0, connections: 2 },
      { requests: 1, connections: 1 },
      { requests: 0, connections: 0 },
    ];
    const reads = [];
    const waited = await waitUntilIdle(
      async () => {
        reads.push(readings[reads.length]);
        return reads.at(-1);
      },
      { pollMs: 5, ...fakeTime() },
    );
    expect(reads).toEqual(readings);
    expect(waited).toBe(15);
  });

  test('an idle server opens the period at once', async () => {
    expect(await waitUntilIdle(async () => ({ requests: 0, connections: 0 }), fakeTime())).toBe(0);
  });

  test('gives up after the timeout with what was still busy and what to change', async () => {
    const drained = waitUntilIdle(async () => ({ requests: 4, connections: 10 }), {
      timeoutMs: 1000,
      pollMs: 100,
      ...fakeTime(),
    });
    await expect(drained).rejects.toMatchObject({
      code: 'ERR_DRAIN',
      message: expect.stringMatching(
        /still running 1 s after it ended \(4 in flight, 10 connections open\).*more CPU, or fewer `connections`/,
      ),
    });
  });
});

describe('draining a real server (the composition of server-process.js)', () => {
  test('a request whose client is gone still holds the period until its work is done', async () => {
    const counter = createRequestCounter();
    const work = createDeferred();
    const server = await startAppServer({ run: counter.wrap(() => work.promise), fault: 'none', port: 0 });
    const readBusy = async () => ({ requests: counter.inFlight, connections: await countConnections(server) });
    try {
      // As autocannon ends its warm-up: a request sent, then the connection destroyed before the answer.
      const socket = net.connect(server.address().port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write('GET /work HTTP/1.1\r\nHost: x\r\n\r\n');
      for (let tries = 0; counter.inFlight === 0 && tries < 200; tries++)
        await new Promise((resolve) => setTimeout(resolve, 5));
      socket.destroy();
      for (let tries = 0; (await countConnections(server)) > 0 && tries < 200; tries++)
        await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await readBusy()).toEqual({ requests: 1, connections: 0 });

      let drained = false;
      const drain = waitUntilIdle(readBusy, { pollMs: 2 }).then((waited) => {
        drained = true;
        return waited;
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(drained).toBe(false);
      work.resolve('done');
      expect(await drain).toBeGreaterThanOrEqual(40);
      expect(await readBusy()).toEqual({ requests: 0, connections: 0 });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test("the loader's checks (requestOnce) leave no connection open behind them", async () => {
    const server = await startAppServer({ run: () => 'ok', fault: 'none', port: 0 });
    try {
      const url = `http://127.0.0.1:${server.address().port}/work`;
      expect(await requestOnce(url, { timeoutMs: 5000 })).toEqual({ status: 200, body: 'ok' });
      expect(
        await requestOnce(url.replace('/work', '/nothing'), {
          method: 'GET',
          headers: { 'x-test': '1' },
          timeoutMs: 5000,
        }),
      ).toEqual({ status: 404, body: 'not found' });
      expect(
        await waitUntilIdle(async () => ({ requests: 0, connections: await countConnections(server) }), {
          timeoutMs: 2000,
          pollMs: 2,
        }),
      ).toBeLessThan(2000);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
