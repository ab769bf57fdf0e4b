import {
  describePending,
  findJobCondition,
  findRefusal,
  hasPodEnded,
  isNodeReady,
  readTermination,
  splitLog,
} from '../../../runner/kubernetes/pod-status.js';

const terminated = (exitCode, reason = exitCode === 0 ? 'Completed' : 'Error') => ({
  terminated: { exitCode, reason },
});

test('a container that ran out of memory: exit 137 and OOMKilled, as the pod status says', () => {
  expect(readTermination({ name: 'run', state: terminated(137, 'OOMKilled'), restartCount: 0 })).toEqual({
    exitCode: 137,
    oomKilled: true,
    restarted: false,
  });
  expect(readTermination({ name: 'run', state: { running: {} } })).toBeNull();
  expect(readTermination(undefined)).toBeNull();
});

test('a sidecar restarted after exiting: its first ending is the one that says what happened', () => {
  const status = { name: 'server', restartCount: 1, state: { running: {} }, lastState: terminated(3) };
  expect(readTermination(status)).toEqual({ exitCode: 3, oomKilled: false, restarted: true });
});

test('the Job deadline, a pod that ended, a node that stopped reporting', () => {
  const job = { status: { conditions: [{ type: 'Failed', status: 'True', reason: 'DeadlineExceeded' }] } };
  expect(findJobCondition(job, 'Failed').reason).toBe('DeadlineExceeded');
  expect(findJobCondition(job, 'Complete')).toBeUndefined();
  expect(
    [{ phase: 'Succeeded' }, { phase: 'Failed' }, { phase: 'Running' }].map((status) => hasPodEnded({ status })),
  ).toEqual([true, true, false]);
  const node = (status) => ({ status: { conditions: [{ type: 'Ready', status }] } });
  expect([node('True'), node('Unknown'), node('False'), null].map(isNodeReady)).toEqual([
    true,
    false,
    false,
    undefined,
  ]);
});

test('a container waiting for an image that is not there is refused at once; one being created waits', () => {
  const pod = (reason, message) => ({
    status: { containerStatuses: [{ name: 'run', state: { waiting: { reason, message } } }] },
  });
  expect(findRefusal(pod('ErrImageNeverPull', 'image "x" is not present'))).toBe(
    'run: ErrImageNeverPull (image "x" is not present)',
  );
  expect(findRefusal(pod('ContainerCreating'))).toBeNull();
  expect(describePending(pod('ContainerCreating'))).toBe('run waiting: ContainerCreating');
  const unscheduled = {
    status: {
      conditions: [{ type: 'PodScheduled', status: 'False', message: '0/1 nodes are available: 1 Insufficient cpu.' }],
    },
  };
  expect(describePending(unscheduled)).toBe('not scheduled: 0/1 nodes are available: 1 Insufficient cpu.');
});

test('the merged log: the result line stays in stdout, stderr keeps the other lines for the error column', () => {
  expect(splitLog('warming up\n{"wall_ms":1,"tasks":[]}\nbye\n')).toEqual({
    stdout: 'warming up\n{"wall_ms":1,"tasks":[]}\nbye\n',
    stderr: 'warming up\nbye\n',
  });
  expect(splitLog(undefined)).toEqual({ stdout: '', stderr: '' });
});
