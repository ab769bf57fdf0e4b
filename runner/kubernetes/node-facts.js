// What the nodes of a pool are, read from the cluster and never from the machine the runner is on: the API's node
// objects give the CPU count, what is allocatable to pods, memory, kernel, OS and the kubelet's version; a small
// Guaranteed probe pod on each node adds the CPU model and the CPU manager's policy (static when one whole CPU gives
// it a cpuset of one CPU). run.json records them as an engine's facts, so `compare` tells two pools apart.
import { parseCpuList } from '../../images/workload/lib/cpuset.js';
import { LabError } from '../errors.js';
import { parseKubernetesQuantity } from '../manifests/quantities.js';
import { PROBE_SCRIPT } from '../docker/engines/engine-facts.js';
import { OWNER } from '../docker/runs/owner.js';
import { buildJob, RUN_CONTAINER } from './job-spec.js';
import { findContainerStatus, isNodeReady, readTermination } from './pod-status.js';
import { runJob } from './run-job.js';

const PROBE_TIMEOUT_MS = 120_000;
const PROBE_MEMORY_BYTES = 128 * 2 ** 20;
const HOSTNAME_LABEL = 'kubernetes.io/hostname';

/** `a=b,c=d`: a node selector as a label selector, and as run.json and the progress lines name a pool. */
export function formatSelector(selector = {}) {
  return Object.entries(selector)
    .map(([key, value]) => `${key}=${value}`)
    .join(',');
}

/**
 * The Ready, schedulable nodes of the pool.
 * @returns {Promise<object[]>}  node facts without the probe's (cpu_model null, cpu_manager unknown)
 */
export async function readPoolNodes(cluster, nodeSelector = {}) {
  const selector = formatSelector(nodeSelector);
  const list = await cluster.call('list nodes', () =>
    cluster.core.listNode(selector ? { labelSelector: selector } : {}),
  );
  const usable = list.items.filter((node) => isNodeReady(node) && !node.spec?.unschedulable);
  if (usable.length === 0) {
    throw new LabError(
      'ERR_PREFLIGHT',
      `${cluster.name}: no Ready, schedulable node${selector ? ` matches node_pool ${selector}` : ''} (${list.items.length} listed)`,
      { hint: 'check `kubectl get nodes --show-labels`, and the `kubernetes: {node_pool: …}` labels' },
    );
  }
  return usable.map((node) => describeNode(node, selector));
}

export function describeNode(node, pool) {
  const info = node.status?.nodeInfo ?? {};
  const cpus = parseQuantity(node.status?.capacity?.cpu);
  return {
    name: node.metadata.name,
    pool,
    cpus,
    cpu_ids: Array.from({ length: cpus }, (_, id) => id),
    cpu_model: null,
    allocatable_cpus: parseQuantity(node.status?.allocatable?.cpu),
    memory_bytes: parseQuantity(node.status?.capacity?.memory),
    allocatable_memory_bytes: parseQuantity(node.status?.allocatable?.memory),
    kernel: info.kernelVersion,
    os: info.osImage,
    architecture: info.architecture,
    kubelet_version: info.kubeletVersion,
    container_runtime: info.containerRuntimeVersion,
    cpu_manager: 'unknown',
    hostname: node.metadata.labels?.[HOSTNAME_LABEL] ?? node.metadata.name,
  };
}

/**
 * The probe pod on one node: the CPU model, and the CPU manager's policy from the cpuset a one-CPU Guaranteed pod gets.
 * @returns {Promise<{ cpu_model: string|null, cpu_manager: 'static'|'none' }>}
 */
export async function probeNode(cluster, node, { image, pullPolicy, owner = OWNER }) {
  const job = buildJob(
    {
      experiment: 'probe',
      runKey: `probe.${node.name}`,
      cell: 'probe',
      env: {},
      limits: { nanoCpus: 1e9, memoryBytes: PROBE_MEMORY_BYTES },
      timeoutMs: PROBE_TIMEOUT_MS,
    },
    { image, pullPolicy, owner, nodeSelector: { [HOSTNAME_LABEL]: node.hostname } },
  );
  job.spec.template.spec.containers[0].command = ['node', '-e', PROBE_SCRIPT];
  const ran = await runJob(cluster, job, {
    timeoutMs: PROBE_TIMEOUT_MS,
    containers: [RUN_CONTAINER],
    endsWith: RUN_CONTAINER,
  });
  const ended = readTermination(findContainerStatus(ran.pod, RUN_CONTAINER));
  let seen;
  try {
    seen = JSON.parse(ran.logs[RUN_CONTAINER] ?? '');
  } catch (cause) {
    const why = ran.reason ?? (ended ? `exit ${ended.exitCode}` : ran.kind);
    throw new LabError('ERR_PREFLIGHT', `the probe pod on node ${node.name} of ${cluster.name} failed: ${why}`, {
      hint: /ErrImageNeverPull|ErrImagePull|ImagePullBackOff/.test(why)
        ? `the node does not have ${image}: load it onto the nodes or name a registry (docs/kubernetes.md, "Images")`
        : 'check that the namespace may run pods (`kubectl -n NAMESPACE get events`)',
      cause,
    });
  }
  const given = parseCpuList(seen.cpuset).length;
  return { cpu_model: seen.model, cpu_manager: given === 1 && node.cpus > 1 ? 'static' : 'none' };
}

// Millicores and bytes: "1900m" is 1.9, not 1.9000000000000001.
function parseQuantity(text) {
  const value = parseKubernetesQuantity(text);
  return value === undefined ? null : Math.round(value * 1000) / 1000;
}
