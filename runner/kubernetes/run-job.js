// One Job from creation to removal: created, watched until its pod has ended (or its deadline passed, or the run was
// aborted, or a container can never start), its containers' logs read, and always deleted with foreground
// propagation (the pod goes before the Job does). The wait asks the API server every POLL_MS and, once the pod is on a
// node, whether that node is still Ready: a stopped kubelet or a lost API server is the contract's backendLost.
import { setTimeout as sleep } from 'node:timers/promises';
import { backendLost } from '../backend/contract.js';
import { statusOf } from './cluster.js';
import { holdsWholeCpus } from './job-spec.js';
import {
  describePending,
  findContainerStatus,
  findJobCondition,
  findRefusal,
  hasPodEnded,
  hasStarted,
  isNodeReady,
} from './pod-status.js';

const POLL_MS = 250;
const NODE_CHECK_MS = 2_000;
// Past the Job's own deadline by this much, the runner stops waiting for the controller to say so.
const BACKSTOP_MS = 30_000;
// A Job controller slower than this to give its verdict on an ended pod: the pod's status is the run's.
const VERDICT_WAIT_MS = 5_000;
// A pod that ended this close to the Job's deadline (or past it) may have been ended by it.
const DEADLINE_MARGIN_MS = 2_000;
// An aborted or timed-out run waits this long for its pod to be gone, so that nothing of it runs on.
const REMOVAL_WAIT_MS = 30_000;
export const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';

/**
 * @param {import('./cluster.js').Cluster} cluster
 * @param {object} job  job-spec.js's buildJob
 * @param {{ signal?: AbortSignal, timeoutMs: number, containers: string[], endsWith?: string }} options  containers:
 *   whose logs to read; endsWith: the container whose ending is the run's (a second sooner than the pod's phase)
 * @returns {Promise<{ name: string, kind: 'done'|'deadline'|'aborted'|'refused', pod: object|null, reason?: string,
 *   logs: Record<string, string>, containerMs: number }>}
 */
export async function runJob(cluster, job, { signal, timeoutMs, containers, endsWith }) {
  const began = performance.now();
  const created = await cluster.call('create a Job', () =>
    cluster.batch.createNamespacedJob({ namespace: cluster.namespace, body: job }),
  );
  const { name } = created.metadata;
  let ending;
  try {
    ending = await waitForEnd(cluster, name, { signal, timeoutMs, began, endsWith });
    const logs = ending.kind === 'done' ? await readLogs(cluster, ending.pod, containers) : {};
    return { name, ...ending, logs, containerMs: performance.now() - began };
  } finally {
    // Lost (no ending): asked once, not waited for; the next start removes it if the cluster did not. A pod that
    // holds whole CPUs keeps them out of the shared pool until it is gone, and the next run's pod would get fewer
    // (a 500m run after a 1-CPU one saw cpuset 0, not 0-1): wait for it, as for a pod that may still run.
    const wait = ending !== undefined && (ending.kind !== 'done' || holdsWholeCpus(job));
    await removeJob(cluster, name, { wait }).catch((error) => {
      if (ending !== undefined) throw error;
    });
  }
}

async function waitForEnd(cluster, name, { signal, timeoutMs, began, endsWith }) {
  const watch = { began, timeoutMs, endsWith, endedAt: undefined };
  let nodeCheckedAt = 0;
  for (;;) {
    if (signal?.aborted) return { kind: 'aborted', pod: null };
    const [job, pod] = await Promise.all([readJob(cluster, name), readPod(cluster, name)]);
    const ending = readEnding(job, pod, watch);
    if (ending) return ending;
    if (pod?.spec?.nodeName && performance.now() - nodeCheckedAt > NODE_CHECK_MS) {
      await checkNode(cluster, pod.spec.nodeName);
      nodeCheckedAt = performance.now();
    }
    await sleep(POLL_MS, undefined, { signal }).catch(() => {});
  }
}

/** How the run ended, from what the Job and its pod say now; null while it goes on. */
function readEnding(job, pod, watch) {
  if (isPastDeadline(job) || performance.now() - watch.began > watch.timeoutMs + BACKSTOP_MS)
    return { kind: 'deadline', pod, reason: neverStarted(pod) ? describePending(pod) : undefined };
  if (hasPodEnded(pod) || hasServerEnded(pod) || hasEnded(pod, watch.endsWith)) {
    watch.endedAt ??= performance.now();
    // A pod killed at the deadline ends before the Job says why: near the deadline, wait (briefly) for the Job's own
    // verdict; a pod that succeeded, or failed well before it, is the run's end.
    const nearDeadline =
      watch.endedAt - watch.began > watch.timeoutMs - DEADLINE_MARGIN_MS && pod?.status?.phase !== 'Succeeded';
    if (!nearDeadline || hasJobVerdict(job) || performance.now() - watch.endedAt > VERDICT_WAIT_MS)
      return { kind: 'done', pod };
  }
  const refusal = findRefusal(pod);
  if (refusal) return { kind: 'refused', pod, reason: refusal };
  const failed = findJobCondition(job, 'Failed');
  if (watch.endedAt === undefined && failed)
    return { kind: 'refused', pod, reason: failed.message ?? 'the Job failed' };
  return null;
}

// The Job controller's verdict: FailureTarget and SuccessCriteriaMet come first (Kubernetes 1.31+), Failed and
// Complete once the pod is gone.
const VERDICTS = ['Complete', 'Failed', 'FailureTarget', 'SuccessCriteriaMet'];

function hasJobVerdict(job) {
  return VERDICTS.some((type) => findJobCondition(job, type));
}

function isPastDeadline(job) {
  return ['Failed', 'FailureTarget'].some((type) => findJobCondition(job, type)?.reason === 'DeadlineExceeded');
}

// The kubelet reports a container's exit about a second before the pod's phase: its exit code is already final.
function hasEnded(pod, container) {
  return container !== undefined && Boolean(findContainerStatus(pod, container)?.state?.terminated);
}

// An http pod's server (a sidecar) that exited is restarted by the kubelet: its first ending is the run's end.
function hasServerEnded(pod) {
  return (findContainerStatus(pod, 'server')?.restartCount ?? 0) > 0;
}

function neverStarted(pod) {
  const statuses = [...(pod?.status?.containerStatuses ?? []), ...(pod?.status?.initContainerStatuses ?? [])];
  return !statuses.some(hasStarted);
}

function readJob(cluster, name) {
  return cluster
    .call('read a Job', () => cluster.batch.readNamespacedJob({ name, namespace: cluster.namespace }))
    .catch(notFoundAsNull);
}

async function readPod(cluster, jobName) {
  const list = await cluster.call('list pods', () =>
    cluster.core.listNamespacedPod({ namespace: cluster.namespace, labelSelector: `${JOB_NAME_LABEL}=${jobName}` }),
  );
  return list.items[0] ?? null;
}

async function checkNode(cluster, nodeName) {
  const node = await cluster.call('read a node', () => cluster.core.readNode({ name: nodeName })).catch(notFoundAsNull);
  if (isNodeReady(node)) return;
  const ready = node?.status?.conditions?.find((condition) => condition.type === 'Ready');
  throw backendLost(
    `node ${nodeName} of ${cluster.name} is not Ready${ready ? ` (${ready.reason ?? ready.status}: ${ready.message ?? ''})` : ' (gone)'}`,
    {
      engine: cluster.name,
      hint: 'rows of the finished runs are kept; once the node is Ready again, resume the folder (--resume DIR)',
    },
  );
}

/** Each container's log ('' when it never started or its log is gone); a restarted one's first run's. */
async function readLogs(cluster, pod, containers) {
  const entries = await Promise.all(
    containers.map(async (container) => {
      const status = findContainerStatus(pod, container);
      if (!hasStarted(status)) return [container, ''];
      const log = await cluster
        .call('read a log', () =>
          cluster.core.readNamespacedPodLog({
            name: pod.metadata.name,
            namespace: cluster.namespace,
            container,
            previous: (status.restartCount ?? 0) > 0,
          }),
        )
        .catch(notFoundAsNull);
      return [container, typeof log === 'string' ? log : ''];
    }),
  );
  return Object.fromEntries(entries);
}

/**
 * Deletes a Job and its pod (foreground: the pod first). With `wait`, until the Job is gone, so that an aborted run
 * has nothing running when it resolves.
 */
export async function removeJob(cluster, name, { wait = false } = {}) {
  await cluster
    .call('delete a Job', () =>
      cluster.batch.deleteNamespacedJob({ name, namespace: cluster.namespace, propagationPolicy: 'Foreground' }),
    )
    .catch(notFoundAsNull);
  if (!wait) return;
  const deadline = performance.now() + REMOVAL_WAIT_MS;
  while (performance.now() < deadline) {
    if ((await readJob(cluster, name)) === null) return;
    await sleep(POLL_MS);
  }
}

function notFoundAsNull(error) {
  if (statusOf(error) === 404) return null;
  throw error;
}
