import {
  buildJob,
  formatMillicores,
  holdsWholeCpus,
  SIDECAR_ENV,
  toResources,
} from '../../../runner/kubernetes/job-spec.js';
import { LABELS, PROJECT, PROJECT_LABEL } from '../../../runner/docker/runs/labels.js';

const run = {
  experiment: 'pool',
  cell: 'abc123',
  runKey: 'abc123.2',
  env: { UV_THREADPOOL_SIZE: '4', LAB_SPEC: '{"workload":"pbkdf2"}' },
  limits: { nanoCpus: 5e8, memoryBytes: 256 * 2 ** 20 },
  timeoutMs: 120_500,
};
const options = { image: 'node-threads-lab/workload:node24-x', pullPolicy: 'Never', owner: 'host/12/345' };

describe('toResources: a cell as Kubernetes asks for it', () => {
  test('cpus become a CPU limit in millicores, equal to the request (Guaranteed), with the memory', () => {
    expect(toResources({ nanoCpus: 1.5e9, memoryBytes: 2 ** 30 })).toEqual({
      resources: {
        limits: { cpu: '1500m', memory: String(2 ** 30) },
        requests: { cpu: '1500m', memory: String(2 ** 30) },
      },
      placement: { cpus: 1.5, exclusive: false },
    });
  });

  test('a cpuset becomes as many whole CPUs, asked as exclusive (the kubelet picks which)', () => {
    expect(toResources({ cpusetCpus: '0,2', memoryBytes: 1 })).toMatchObject({
      resources: { limits: { cpu: '2' }, requests: { cpu: '2' } },
      placement: { cpus: 2, exclusive: true },
    });
  });

  test('no cpus and no cpuset: no CPU limit, and nothing to check of the placement', () => {
    expect(toResources({ memoryBytes: 64 })).toEqual({
      resources: { limits: { memory: '64' }, requests: { memory: '64' } },
      placement: { cpus: null, exclusive: false },
    });
  });

  test('quantities as Kubernetes spells them', () => {
    expect([1000, 2000, 500, 1].map(formatMillicores)).toEqual(['1', '2', '500m', '1m']);
  });
});

describe('buildJob', () => {
  const job = buildJob(run, { ...options, nodeSelector: { pool: 'api' } });
  const pod = job.spec.template.spec;

  test('a pod with a whole CPU in any container holds it exclusively (the run waits for it to be gone)', () => {
    expect(holdsWholeCpus(job)).toBe(false);
    expect(holdsWholeCpus(buildJob({ ...run, limits: { nanoCpus: 1e9, memoryBytes: 1 } }, options))).toBe(true);
    expect(holdsWholeCpus(buildJob({ ...run, limits: { memoryBytes: 1 } }, options))).toBe(false);
  });

  test('one try, no restart, the deadline from the timeout, labelled for cleanup and annotated with the owner', () => {
    expect(job.spec).toMatchObject({ backoffLimit: 0, activeDeadlineSeconds: 121 });
    expect(pod.restartPolicy).toBe('Never');
    expect(job.metadata.labels).toEqual({ [PROJECT_LABEL]: PROJECT });
    expect(job.metadata.annotations).toMatchObject({ [LABELS.owner]: 'host/12/345', [LABELS.run]: 'abc123.2' });
    expect(pod.nodeSelector).toEqual({ pool: 'api' });
  });

  test('locked down as Docker runs are: non-root, read-only root, no escalation, no capabilities, no token', () => {
    expect(pod).toMatchObject({
      automountServiceAccountToken: false,
      securityContext: { runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } },
      volumes: [{ name: 'tmp', emptyDir: { medium: 'Memory' } }],
    });
    expect(pod.containers).toHaveLength(1);
    expect(pod.containers[0]).toMatchObject({
      name: 'run',
      imagePullPolicy: 'Never',
      securityContext: {
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
      },
      volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
      resources: { limits: { cpu: '500m' } },
    });
    expect(pod.containers[0].env).toContainEqual({ name: 'UV_THREADPOOL_SIZE', value: '4' });
  });

  test('an http run: the server a native sidecar with a startup probe, the loader the main container', () => {
    const loaderLimits = { nanoCpus: 5e8, memoryBytes: 512 * 2 ** 20 };
    const pair = buildJob({ ...run, limits: { nanoCpus: 1e9, memoryBytes: 2 ** 28 } }, { ...options, loaderLimits });
    const { initContainers, containers } = pair.spec.template.spec;
    expect(initContainers).toEqual([
      expect.objectContaining({
        name: 'server',
        restartPolicy: 'Always',
        startupProbe: expect.objectContaining({ httpGet: { path: '/__lab/ready', port: 3001 } }),
        resources: { limits: { cpu: '1', memory: String(2 ** 28) }, requests: { cpu: '1', memory: String(2 ** 28) } },
      }),
    ]);
    for (const [name, value] of Object.entries(SIDECAR_ENV))
      expect(initContainers[0].env).toContainEqual({ name, value });
    expect(containers).toEqual([
      expect.objectContaining({
        name: 'loader',
        command: ['node', '/app/loader.js'],
        env: [{ name: 'LAB_SPEC', value: run.env.LAB_SPEC }],
        resources: expect.objectContaining({ limits: { cpu: '500m', memory: String(512 * 2 ** 20) } }),
      }),
    ]);
  });
});
