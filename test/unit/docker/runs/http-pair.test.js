// The http pair's wait for its load generator (runner/docker/runs/http-pair.js), on stand-in containers: a server
// that exits 0 has answered /__lab/stop and the loader is summing up, so it must not be killed; a server that
// fails first ends the wait at once.
import { awaitLoader, awaitServerEnd } from '../../../../runner/docker/runs/http-pair.js';

function standIn(exitAfterMs, statusCode) {
  const state = { killed: false };
  return {
    state,
    wait: () => new Promise((resolve) => setTimeout(resolve, exitAfterMs, { StatusCode: statusCode })),
    kill: async () => {
      state.killed = true;
    },
  };
}

describe('awaitLoader', () => {
  test('a server that exits 0 before the loader: the loader finishes and prints (it is not killed)', async () => {
    const [server, loader] = [standIn(5, 0), standIn(120, 0)];
    await expect(awaitLoader(server, loader, 10_000)).resolves.toEqual({ ending: 'exited', serverEndedFirst: true });
    expect(loader.state.killed).toBe(false);
  });

  test('a server that fails first (non-zero) cuts the wait and the loader is killed', async () => {
    const [server, loader] = [standIn(5, 137), standIn(400, 0)];
    await expect(awaitLoader(server, loader, 10_000)).resolves.toEqual({ ending: 'aborted', serverEndedFirst: true });
    expect(loader.state.killed).toBe(true);
  });

  test('a loader that outlasts the timeout is killed, whatever the server did', async () => {
    const [server, loader] = [standIn(5, 0), standIn(400, 0)];
    await expect(awaitLoader(server, loader, 50)).resolves.toEqual({ ending: 'timeout', serverEndedFirst: true });
    expect(loader.state.killed).toBe(true);
  });
});

describe('awaitServerEnd', () => {
  const output = (text) => ({ stdout: () => text });

  test('a server that exits: exited', async () => {
    await expect(awaitServerEnd({ container: standIn(20, 0), output: output('') }, 5000)).resolves.toBe('exited');
  });

  test("a server whose line is out but whose exit waits (its pool's queue): printed, a second after the line", async () => {
    const began = performance.now();
    const ending = await awaitServerEnd({ container: standIn(60_000, 0), output: output('{"wall_ms":1}\n') }, 10_000);
    expect(ending).toBe('printed');
    expect(performance.now() - began).toBeGreaterThanOrEqual(1000);
  });

  test('no line and no exit: timeout', async () => {
    await expect(awaitServerEnd({ container: standIn(60_000, 0), output: output('') }, 150)).resolves.toBe('timeout');
  });
});
