// One run = one Job (backoffLimit 0, restartPolicy Never, a deadline from the run's timeout), built here from a
// RunSpec with no cluster in sight, so that unit tests read every field. What Docker's run-container.js sets as host
// config becomes the pod's: limits = requests (a Guaranteed pod), the lock-down as a securityContext, /tmp as an
// in-memory emptyDir. An http run is one pod: the server as a native sidecar (an init container that keeps running)
// with a startup probe on the lab's control port, the load generator as the main container, each with its own limits.
import { parseCpuList } from '../../images/workload/lib/cpuset.js';
import { LABELS, PROJECT, PROJECT_LABEL } from '../docker/runs/labels.js';

// The workload image's user (images/workload: user `lab`), as Docker's runs use it.
const NON_ROOT_ID = 1000;
const TMP_SIZE = '64Mi';
const LOADER_ENTRYPOINT = ['node', '/app/loader.js'];
/** The lab's control server (images/workload/http/endpoints.js CONTROL_PORT, CONTROL.ready). */
const CONTROL_PORT = 3001;
const READY_PATH = '/__lab/ready';
// A Job that outlives a killed runner and the next start's cleanup is removed by the cluster after this long.
const TTL_AFTER_FINISHED_S = 600;

/** Job names: `ntl-` and a suffix the API server picks. */
export const JOB_NAME_PREFIX = 'ntl-';
/** The container of a one-container run. */
export const RUN_CONTAINER = 'run';

/**
 * What a cell's limits ask of Kubernetes. A cpuset becomes that many whole CPUs, exclusive under the static CPU
 * manager (the kubelet picks which); `cpus` becomes a quota in millicores, an integer one exclusive CPUs as well. Both
 * at once has no Kubernetes form (checkKubernetesCells refuses it before any run).
 * @param {{ nanoCpus?: number, cpusetCpus?: string, memoryBytes?: number }} limits
 * @returns {{ resources: object, placement: { cpus: number|null, exclusive: boolean } }}  placement: what the pod
 *   must see from inside (collect/parse-result.js compares it with seen_cpuset and seen_cpu_quota)
 */
export function toResources({ nanoCpus, cpusetCpus, memoryBytes }) {
  const cpusetCount = cpusetCpus ? parseCpuList(cpusetCpus).length : 0;
  const millicores = cpusetCount > 0 ? cpusetCount * 1000 : nanoCpus ? Math.ceil(nanoCpus / 1e6) : null;
  const amounts = {
    ...(millicores === null ? {} : { cpu: formatMillicores(millicores) }),
    ...(memoryBytes ? { memory: String(memoryBytes) } : {}),
  };
  return {
    resources: { limits: amounts, requests: { ...amounts } },
    placement: { cpus: millicores === null ? null : millicores / 1000, exclusive: cpusetCount > 0 },
  };
}

/** Whether the Job's pod asks for whole CPUs in a container, which the static CPU manager gives it exclusively. */
export function holdsWholeCpus(job) {
  const { initContainers = [], containers = [] } = job.spec.template.spec;
  return [...initContainers, ...containers].some((container) =>
    /^[0-9]+$/.test(container.resources?.limits?.cpu ?? ''),
  );
}

/** 1000 → "1", 1500 → "1500m": Kubernetes' own spelling. */
export function formatMillicores(millicores) {
  return millicores % 1000 === 0 ? String(millicores / 1000) : `${millicores}m`;
}

/**
 * @param {import('../plan/plan-runs.js').RunSpec} run
 * @param {object} options
 * @param {string} options.image            as the nodes pull it
 * @param {'Never'|'IfNotPresent'} options.pullPolicy  Never: preloaded on the nodes
 * @param {Record<string,string>} [options.nodeSelector]  the node pool
 * @param {string} options.owner            this runner (docker/runs/owner.js), for the next start's cleanup
 * @param {object} [options.loaderLimits]   an http run's load generator (plan/loader-limits.js)
 * @returns {object}  a batch/v1 Job
 */
export function buildJob(run, { image, pullPolicy, nodeSelector, owner, loaderLimits }) {
  const labels = { [PROJECT_LABEL]: PROJECT };
  const annotations = {
    [LABELS.owner]: owner,
    [LABELS.experiment]: run.experiment,
    [LABELS.run]: run.runKey,
    [LABELS.cell]: run.cell,
  };
  const base = {
    image,
    imagePullPolicy: pullPolicy,
    ...(run.workingDir ? { workingDir: run.workingDir } : {}),
    securityContext: CONTAINER_SECURITY,
    volumeMounts: TMP_MOUNT,
  };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { generateName: JOB_NAME_PREFIX, labels, annotations },
    spec: {
      backoffLimit: 0,
      activeDeadlineSeconds: Math.max(1, Math.ceil(run.timeoutMs / 1000)),
      ttlSecondsAfterFinished: TTL_AFTER_FINISHED_S,
      template: {
        metadata: { labels, annotations },
        spec: {
          restartPolicy: 'Never',
          automountServiceAccountToken: false,
          enableServiceLinks: false,
          terminationGracePeriodSeconds: 1,
          ...(nodeSelector && Object.keys(nodeSelector).length > 0 ? { nodeSelector } : {}),
          securityContext: POD_SECURITY,
          volumes: [{ name: 'tmp', emptyDir: { medium: 'Memory', sizeLimit: TMP_SIZE } }],
          ...(loaderLimits ? buildHttpContainers(run, base, loaderLimits) : buildOneContainer(run, base)),
        },
      },
    },
  };
}

function buildOneContainer(run, base) {
  return {
    containers: [{ ...base, name: RUN_CONTAINER, env: toEnv(run.env), resources: toResources(run.limits).resources }],
  };
}

/** The server a native sidecar (started, probed, then the loader), the loader the pod's main container. */
function buildHttpContainers(run, base, loaderLimits) {
  const server = {
    ...base,
    name: 'server',
    env: [...toEnv(run.env), ...toEnv(SIDECAR_ENV)],
    resources: toResources(run.limits).resources,
    restartPolicy: 'Always',
    startupProbe: {
      httpGet: { path: READY_PATH, port: CONTROL_PORT },
      periodSeconds: 1,
      // Never the probe's verdict: the server's own bound on its start (readyTimeout) ends a server that does not
      // come up, and the run's deadline bounds the rest.
      failureThreshold: Math.max(1, Math.ceil(run.timeoutMs / 1000)),
    },
  };
  const loader = {
    ...base,
    name: 'loader',
    command: LOADER_ENTRYPOINT,
    env: toEnv({ LAB_SPEC: run.env.LAB_SPEC }),
    resources: toResources(loaderLimits).resources,
  };
  return { initContainers: [server], containers: [loader] };
}

// The server of an http pod: its control server answers the kubelet's probe on the pod's address, and after printing
// its line it waits for the kubelet's SIGTERM instead of exiting (a sidecar that exits is restarted).
export const SIDECAR_ENV = { LAB_CONTROL_HOST: '0.0.0.0', LAB_STAY_UNTIL_SIGTERM: '1' };

// The lock-down of docker/runs/run-container.js, as Pod Security's `restricted` level asks it.
const POD_SECURITY = {
  runAsNonRoot: true,
  runAsUser: NON_ROOT_ID,
  runAsGroup: NON_ROOT_ID,
  seccompProfile: { type: 'RuntimeDefault' },
};
const CONTAINER_SECURITY = {
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  capabilities: { drop: ['ALL'] },
};
const TMP_MOUNT = [{ name: 'tmp', mountPath: '/tmp' }];

function toEnv(env) {
  return Object.entries(env).map(([name, value]) => ({ name, value: String(value) }));
}
