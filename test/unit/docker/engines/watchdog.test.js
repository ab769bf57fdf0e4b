// The watchdog, with a fake engine whose ping can answer, refuse or stay silent, and small intervals.
import { once } from 'node:events';
import { watchEngine } from '../../../../runner/docker/engines/watchdog.js';

function fakeEngine() {
  const engine = { mode: 'ok', pings: 0 };
  engine.ping = () => {
    engine.pings++;
    if (engine.mode === 'ok') return Promise.resolve('OK');
    if (engine.mode === 'refuse')
      return Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    return new Promise(() => {});
  };
  return engine;
}

const fast = { everyMs: 10, timeoutMs: 20, lostAfterMs: 100 };

test('an engine that answers is never lost', async () => {
  const engine = fakeEngine();
  const watchdog = watchEngine(engine, fast);
  await new Promise((resolve) => setTimeout(resolve, 250));
  watchdog.stop();
  expect(engine.pings).toBeGreaterThan(3);
  expect(watchdog.signal.aborted).toBe(false);
});

test('a refused connection twice in a row: lost, with the reason, once', async () => {
  const engine = fakeEngine();
  const lost = [];
  const watchdog = watchEngine(engine, { ...fast, lostAfterMs: 60_000, onLost: (reason) => lost.push(reason) });
  engine.mode = 'refuse';
  await once(watchdog.signal, 'abort');
  expect(watchdog.signal.reason.message).toMatch(/refused the connection \(ECONNREFUSED\)/);
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(lost).toHaveLength(1);
});

test('silence (a hung engine) is lost after lostAfterMs; a late answer before that resets the clock', async () => {
  const engine = fakeEngine();
  const watchdog = watchEngine(engine, fast);
  engine.mode = 'silent';
  await new Promise((resolve) => setTimeout(resolve, 60));
  engine.mode = 'ok';
  await new Promise((resolve) => setTimeout(resolve, 60));
  expect(watchdog.signal.aborted).toBe(false);
  engine.mode = 'silent';
  await once(watchdog.signal, 'abort');
  expect(watchdog.signal.reason.message).toMatch(/no answer for \d+ s/);
});
