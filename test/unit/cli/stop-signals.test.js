// Ctrl-C's three cases, with the process's own signals (emitted, not sent) and exit replaced: before the first run
// it removes this runner's containers and waits for them (a cluster's probe Job); during a run it stops the run; a
// second one leaves at once, asking for the removal without waiting.
import { jest } from '@jest/globals';
import { PassThrough } from 'node:stream';
import { listenForStop } from '../../../runner/commands/stop-signals.js';

function fakeTracker({ preparing }) {
  return {
    preparing,
    stopped: 0,
    removals: [],
    stop() {
      this.stopped += 1;
    },
    async removeOwnContainers(options) {
      this.removals.push(options);
    },
  };
}

let exit;
beforeEach(() => {
  exit = jest.spyOn(process, 'exit').mockImplementation(() => undefined);
});
afterEach(() => exit.mockRestore());

// The handler is async: let its awaits run before looking.
const settle = () => new Promise((resolve) => setImmediate(resolve));

test('while preparing: removes the containers, waiting for them, and exits 130', async () => {
  const tracker = fakeTracker({ preparing: true });
  const stopper = listenForStop(new PassThrough(), tracker);
  try {
    process.emit('SIGINT', 'SIGINT');
    await settle();
    expect(tracker.removals).toEqual([{ wait: true }]);
    expect(tracker.stopped).toBe(0);
    expect(exit).toHaveBeenCalledWith(130);
  } finally {
    stopper.dispose();
  }
});

test('during a run: stops it; a second signal removes without waiting and exits', async () => {
  const tracker = fakeTracker({ preparing: false });
  const stopper = listenForStop(new PassThrough(), tracker);
  try {
    process.emit('SIGTERM', 'SIGTERM');
    await settle();
    expect(tracker.stopped).toBe(1);
    expect(tracker.removals).toEqual([]);
    expect(stopper.signalName).toBe('SIGTERM');
    process.emit('SIGINT', 'SIGINT');
    await settle();
    expect(tracker.removals).toEqual([{ wait: false }]);
    expect(exit).toHaveBeenCalledWith(130);
  } finally {
    stopper.dispose();
  }
});
