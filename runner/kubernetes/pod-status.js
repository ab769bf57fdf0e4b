// What a Job's pod says about its run, read from the API objects alone (no cluster here, so unit tests feed it
// objects as the API server returns them): whether it has ended and how, each container's exit code and OOM kill,
// why it cannot start.

// A container that waits for one of these will never start: the run is refused, as Docker refusing a container is.
const NEVER_STARTS = new Set([
  'ErrImagePull',
  'ImagePullBackOff',
  'ErrImageNeverPull',
  'InvalidImageName',
  'CreateContainerConfigError',
  'CreateContainerError',
  'RunContainerError',
]);

/** The Job's condition of that type when it is true, else undefined. */
export function findJobCondition(job, type) {
  return job?.status?.conditions?.find((condition) => condition.type === type && condition.status === 'True');
}

export function hasPodEnded(pod) {
  return pod?.status?.phase === 'Succeeded' || pod?.status?.phase === 'Failed';
}

/** A container's status by name, among the regular and the init containers (an http run's server is a sidecar). */
export function findContainerStatus(pod, name) {
  const all = [...(pod?.status?.containerStatuses ?? []), ...(pod?.status?.initContainerStatuses ?? [])];
  return all.find((status) => status.name === name);
}

/**
 * How a container ended: its own termination, or for one restarted (a sidecar that exited) the first one's, which is
 * the one that says what happened. null: it never ran, or is still running.
 * @returns {{ exitCode: number|null, oomKilled: boolean, restarted: boolean }|null}
 */
export function readTermination(status) {
  if (!status) return null;
  const restarted = (status.restartCount ?? 0) > 0;
  const ended = restarted ? (status.lastState?.terminated ?? status.state?.terminated) : status.state?.terminated;
  if (!ended) return null;
  return { exitCode: ended.exitCode ?? null, oomKilled: ended.reason === 'OOMKilled', restarted };
}

/** Whether the container ever started: it has run or runs now. */
export function hasStarted(status) {
  return Boolean(status?.state?.running || status?.state?.terminated || status?.lastState?.terminated);
}

/** Why the pod cannot start, in words, when one of its containers waits for something that never comes; else null. */
export function findRefusal(pod) {
  const all = [...(pod?.status?.initContainerStatuses ?? []), ...(pod?.status?.containerStatuses ?? [])];
  const stuck = all.find((status) => NEVER_STARTS.has(status.state?.waiting?.reason));
  if (!stuck) return null;
  const { reason, message } = stuck.state.waiting;
  return `${stuck.name}: ${reason}${message ? ` (${message})` : ''}`;
}

/** Why a pod still waits to be placed or started, for a run that never started before its deadline. */
export function describePending(pod) {
  if (!pod) return 'no pod was created';
  const unscheduled = pod.status?.conditions?.find(
    (condition) => condition.type === 'PodScheduled' && condition.status !== 'True',
  );
  if (unscheduled) return `not scheduled: ${unscheduled.message ?? unscheduled.reason ?? 'no node fits'}`;
  const waiting = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])].find(
    (status) => status.state?.waiting,
  );
  if (waiting) return `${waiting.name} waiting: ${waiting.state.waiting.reason ?? ''}`;
  return `pod ${pod.status?.phase ?? 'Pending'}`;
}

/** The node's Ready condition: true only when it says so (Unknown: the kubelet stopped reporting). */
export function isNodeReady(node) {
  return node?.status?.conditions?.some((condition) => condition.type === 'Ready' && condition.status === 'True');
}

/**
 * A container's log as the API returns it: stdout and stderr merged into one stream. The result line is read from it
 * whole (collect/parse-result.js takes the last JSON line); for the error column's tail, the lines that are not JSON.
 */
export function splitLog(log) {
  const text = log ?? '';
  const other = text
    .split('\n')
    .filter((line) => !line.trim().startsWith('{'))
    .join('\n');
  return { stdout: text, stderr: other };
}
