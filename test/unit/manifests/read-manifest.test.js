// Deployment files as init reads them: every kind of Kubernetes object with a pod, Compose services, the amounts in
// the forms each writes, and a clear error with its position for what cannot be read (test/fixtures/manifests/).
import { fileURLToPath } from 'node:url';
import { LabError } from '../../../runner/errors.js';
import { readManifest } from '../../../runner/manifests/read-manifest.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/manifests/', import.meta.url));
const read = (name, options) => readManifest(`${FIXTURES}${name}`, { shown: name, ...options });
const brief = ({ object, container, cpu, memory }) => ({
  object,
  container,
  cpu: cpu && `${cpu.cpus} (${cpu.field} ${cpu.written}) at ${cpu.line}:${cpu.column}`,
  memory: memory && `${memory.docker} (${memory.field} ${memory.written})`,
});

function readError(name, options) {
  try {
    read(name, options);
  } catch (error) {
    return error;
  }
  throw new Error(`${name} was read without an error`);
}

test('a Deployment: each container of the pod, limits first; its init containers too, marked as such', () => {
  const { sources } = read('deployment.yaml');
  expect(sources.map(brief)).toEqual([
    {
      object: 'Deployment/api',
      container: 'api',
      cpu: '1.5 (limits.cpu 1500m) at 19:27',
      memory: '512m (limits.memory 512Mi)',
    },
    { object: 'Deployment/api', container: 'log-shipper', cpu: null, memory: null },
    {
      object: 'Deployment/api',
      container: 'migrate',
      cpu: '4 (limits.cpu "4") at 13:27',
      memory: '2g (limits.memory 2Gi)',
    },
  ]);
  expect(sources.map((source) => [source.role, source.line])).toEqual([
    ['container', 15],
    ['container', 20],
    ['init', 11],
  ]);
});

test('every kind with a pod, in one multi-document file; requests.cpu when no limit; a List item by item', () => {
  const { sources, warnings } = read('workloads.yaml');
  expect(warnings).toEqual([]);
  expect(sources.map(brief)).toEqual([
    { object: 'StatefulSet/queue', container: 'queue', cpu: '0.25 (requests.cpu "0.25") at 19:29', memory: null },
    {
      object: 'DaemonSet/agent',
      container: 'agent',
      cpu: '1 (limits.cpu 1) at 31:27',
      memory: '1000000000 (limits.memory 1G)',
    },
    {
      object: 'Job/report',
      container: 'report',
      cpu: '2 (limits.cpu 2000m) at 43:27',
      memory: '1g (limits.memory "1073741824")',
    },
    {
      object: 'CronJob/nightly',
      container: 'nightly',
      cpu: '1.5 (limits.cpu 1500m) at 58:31',
      memory: '768m (limits.memory 768Mi)',
    },
    { object: 'Pod/debug', container: 'debug', cpu: '0.1 (limits.cpu 100m) at 68:23', memory: null },
    { object: 'ReplicaSet/legacy', container: 'legacy', cpu: '2 (limits.cpu "2") at 83:31', memory: null },
  ]);
});

test('Compose: cpus and deploy.resources.limits, mem_limit and memory; a variable is not read, with a warning', () => {
  const { sources, warnings } = read('compose.yaml');
  expect(sources.map(brief)).toEqual([
    { object: 'service api', container: null, cpu: '0.5 (cpus "0.5") at 4:11', memory: '1g (mem_limit 1g)' },
    {
      object: 'service worker',
      container: null,
      cpu: '1.5 (deploy.resources.limits.cpus "1.5") at 10:24',
      memory: '256m (deploy.resources.limits.memory 256M)',
    },
    { object: 'service db', container: null, cpu: null, memory: null },
    { object: 'service batch', container: null, cpu: null, memory: null },
  ]);
  expect(warnings).toEqual([
    expect.objectContaining({
      line: 16,
      column: 11,
      message: 'service batch: `cpus: ${BATCH_CPUS:-1}` is filled in later (a variable or a template): not read',
    }),
  ]);
});

test('a file that is no YAML: exit 2, its file, line and column', () => {
  const error = readError('bad-syntax.yaml');
  expect(error).toBeInstanceOf(LabError);
  expect([error.code, error.exitCode, error.line, error.column]).toEqual(['ERR_MANIFEST_INVALID', 2, 7, 38]);
  expect(error.format()).toMatch(
    /bad-syntax\.yaml:7:38: Flow sequence in block collection must be sufficiently indented/,
  );
});

test('an amount that is no quantity: each one, with its key path, position and what to write', () => {
  const error = readError('bad-cpu.yaml');
  expect(error.errors.map((each) => each.format())).toEqual([
    `${FIXTURES}bad-cpu.yaml:16:20: spec.template.spec.containers[0].resources.limits.cpu: \`limits.cpu\` is "1500x", not a Kubernetes CPU quantity (1500m, "1.5", 2)\n  write e.g. \`cpu: 1500m\` or \`cpu: "1.5"\``,
    `${FIXTURES}bad-cpu.yaml:17:23: spec.template.spec.containers[0].resources.limits.memory: \`limits.memory\` is "512Mb", not a Kubernetes memory quantity (512Mi, 1Gi, 1G)\n  write e.g. \`memory: 512Mi\``,
  ]);
  expect(readError('bad-compose.yml').format()).toBe(
    `${FIXTURES}bad-compose.yml:3:11: services.api.cpus: \`cpus\` is "half", not a number of CPUs ("0.5", 1.5)\n  write e.g. \`cpus: "0.5"\``,
  );
});

test('a Helm template is not read: a warning that says how to render it', () => {
  expect(read('helm/templates/deployment.yaml')).toEqual({
    sources: [],
    services: [],
    warnings: [
      expect.objectContaining({
        message: 'not read: a Helm template (`{{ }}`), which is YAML only once rendered',
        hint: expect.stringContaining('helm template'),
      }),
    ],
  });
});

test('named with --from, a file with no Kubernetes object and no Compose services is a mistake; found, it is not read', () => {
  expect(readError('not-a-manifest.yaml', { named: true }).message).toBe(
    'holds no Kubernetes object (kind, apiVersion) and no Compose `services:`',
  );
  expect(read('not-a-manifest.yaml')).toEqual({ sources: [], services: [], warnings: [] });
});
