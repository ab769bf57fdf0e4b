// The start protocol's failure reasons (images/workload/spread/follow-unit.js): a cluster process killed from outside
// can break its channel (EPIPE) before its exit arrives; the reason given is the exit, whichever comes first.
import { EventEmitter } from 'node:events';
import { followUnit } from '../../../../images/workload/spread/follow-unit.js';

const clusterProcess = () => Object.assign(new EventEmitter(), { process: { pid: 42 } });
const broken = (code) => Object.assign(new Error(`write ${code}`), { code });

test('a broken channel of a cluster process waits for its exit, which names the signal', async () => {
  const unit = clusterProcess();
  const { ready, waitDone } = followUnit(unit, 'cluster process 1 (pid 42)', () => {});
  ready.catch(() => {});
  const done = waitDone();
  unit.emit('error', broken('EPIPE'));
  unit.emit('exit', null, 'SIGKILL');
  await expect(done).rejects.toThrow('cluster process 1 (pid 42) exited (signal SIGKILL) before finishing its tasks');
});

test('any other error fails at once with its message; so does a broken channel of a worker thread', async () => {
  const unit = clusterProcess();
  const { ready, waitDone } = followUnit(unit, 'cluster process 1 (pid 42)', () => {});
  ready.catch(() => {});
  unit.emit('error', new Error('out of memory'));
  await expect(waitDone()).rejects.toThrow('cluster process 1 (pid 42): out of memory');
  const thread = new EventEmitter();
  const followed = followUnit(thread, 'worker 1', () => {});
  followed.ready.catch(() => {});
  thread.emit('error', broken('EPIPE'));
  await expect(followed.waitDone()).rejects.toThrow('worker 1: write EPIPE');
});

test('a unit serves one batch after another, and one that exits while idle fails the next batch it is asked for', async () => {
  const unit = clusterProcess();
  const records = [];
  const { ready, waitDone } = followUnit(unit, 'cluster process 1 (pid 42)', (record) => records.push(record));
  unit.emit('message', { type: 'ready' });
  await ready;
  for (const batch of [1, 2]) {
    const done = waitDone();
    unit.emit('message', { type: 'task', record: { task: 0, batch } });
    unit.emit('message', { type: 'done', usage: { batch } });
    await expect(done).resolves.toEqual({ type: 'done', usage: { batch } });
  }
  expect(records).toEqual([
    { task: 0, batch: 1 },
    { task: 0, batch: 2 },
  ]);
  // Closed after its last batch: the exit is the one asked for, so nothing fails...
  unit.emit('exit', 0, null);
  // ...until another batch is asked of it.
  await expect(waitDone()).rejects.toThrow('cluster process 1 (pid 42) exited (code 0) before finishing its tasks');
});
