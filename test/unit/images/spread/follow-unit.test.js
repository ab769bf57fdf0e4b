// The start protocol's failure reasons (images/workload/spread/follow-unit.js): a cluster process killed from outside
// can break its channel (EPIPE) before its exit arrives; the reason given is the exit, whichever comes first.
import { EventEmitter } from 'node:events';
import { followUnit } from '../../../../images/workload/spread/follow-unit.js';

const clusterProcess = () => Object.assign(new EventEmitter(), { process: { pid: 42 } });
const broken = (code) => Object.assign(new Error(`write ${code}`), { code });

test('a broken channel of a cluster process waits for its exit, which names the signal', async () => {
  const unit = clusterProcess();
  const { ready, done } = followUnit(unit, 'cluster process 1 (pid 42)', () => {});
  ready.catch(() => {});
  unit.emit('error', broken('EPIPE'));
  unit.emit('exit', null, 'SIGKILL');
  await expect(done).rejects.toThrow('cluster process 1 (pid 42) exited (signal SIGKILL) before finishing its tasks');
});

test('any other error fails at once with its message; so does a broken channel of a worker thread', async () => {
  const unit = clusterProcess();
  const { ready, done } = followUnit(unit, 'cluster process 1 (pid 42)', () => {});
  ready.catch(() => {});
  unit.emit('error', new Error('out of memory'));
  await expect(done).rejects.toThrow('cluster process 1 (pid 42): out of memory');
  const thread = new EventEmitter();
  const followed = followUnit(thread, 'worker 1', () => {});
  followed.ready.catch(() => {});
  thread.emit('error', broken('EPIPE'));
  await expect(followed.done).rejects.toThrow('worker 1: write EPIPE');
});
