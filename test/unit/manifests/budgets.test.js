// From deployment files to the experiment's budgets and memory: quantities as Kubernetes and Compose read them, one
// budget per amount with all its sources, the smallest memory limit, and where init looks for the files.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { combineBudgets, describeSource } from '../../../runner/manifests/budgets.js';
import { findManifestFiles, findProjectRoot } from '../../../runner/manifests/find-manifests.js';
import { readDeployment } from '../../../runner/manifests/read-deployment.js';
import {
  formatDockerMemory,
  parseComposeBytes,
  parseComposeCpus,
  parseKubernetesQuantity,
  roundUpToMillicores,
} from '../../../runner/manifests/quantities.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/manifests/', import.meta.url));

test.each([
  ['1500m', 1.5],
  ['0.5', 0.5],
  [2, 2],
  ['.5', 0.5],
  ['100u', 0.0001],
  ['1e3', 1000],
  ['512Mi', 536870912],
  ['1Gi', 1073741824],
  ['1G', 1e9],
  ['500M', 5e8],
  ['128974848', 128974848],
  ['1.5Gi', 1610612736],
])('Kubernetes reads %j as %d', (text, value) => {
  expect(parseKubernetesQuantity(text)).toBeCloseTo(value, 9);
});

test.each(['1500x', '512Mb', 'half', '', '1.5.2', true, null])('Kubernetes refuses %j', (text) => {
  expect(parseKubernetesQuantity(text)).toBeUndefined();
});

test('Compose: cpus as a number or its text; bytes in powers of 1024, as docker/go-units reads them', () => {
  expect(['0.5', 1.5, '2', 'half', '500m'].map(parseComposeCpus)).toEqual([0.5, 1.5, 2, undefined, undefined]);
  expect(['512m', '1g', '1.5gb', '256M', '512Mi', '512MiB', 1048576, '12 kb', 'lots'].map(parseComposeBytes)).toEqual([
    536870912,
    1073741824,
    1610612736,
    268435456,
    536870912,
    536870912,
    1048576,
    12288,
    undefined,
  ]);
});

test('a budget is rounded up to a millicore, never below what is deployed; memory in exact Docker notation', () => {
  expect([0.0001, 1.5, 0.3333, 2].map(roundUpToMillicores)).toEqual([0.001, 1.5, 0.334, 2]);
  expect([536870912, 1073741824, 5e8, 1536, 805306368].map(formatDockerMemory)).toEqual([
    '512m',
    '1g',
    '500000000',
    '1536',
    '768m',
  ]);
});

const source = (file, object, container, cpus, memory) => ({
  file,
  format: 'kubernetes',
  object,
  container,
  cpu: cpus === null ? null : { cpus, field: 'limits.cpu', written: String(cpus) },
  memory: memory === null ? null : { bytes: memory, docker: formatDockerMemory(memory), field: 'limits.memory' },
});

test('one budget per amount, ascending, with every source; the smallest memory of the budgets, a sidecar aside', () => {
  const api = source('k8s/api.yaml', 'Deployment/api', 'api', 1.5, 2 ** 29);
  const worker = source('k8s/worker.yaml', 'Deployment/worker', 'worker', 1.5, 2 ** 30);
  const small = source('k8s/cron.yaml', 'CronJob/nightly', 'nightly', 0.5, null);
  const sidecar = source('k8s/api.yaml', 'Deployment/api', 'shipper', null, 2 ** 26);
  const { budgets, memory, without } = combineBudgets([api, sidecar, worker, small]);
  expect(budgets.map(({ cpus, sources }) => [cpus, sources.map(describeSource)])).toEqual([
    [0.5, ['k8s/cron.yaml: CronJob/nightly, container nightly']],
    [1.5, ['k8s/api.yaml: Deployment/api, container api', 'k8s/worker.yaml: Deployment/worker, container worker']],
  ]);
  expect([memory.docker, memory.sources, memory.others, memory.unlimited]).toEqual(['512m', [api], [worker], [small]]);
  expect(without).toEqual([sidecar]);
  // Only a sidecar sets memory: it is the limit there is.
  expect(combineBudgets([small, sidecar]).memory.docker).toBe('64m');
  expect(combineBudgets([small]).memory).toBeNull();
});

test('init looks in the project of the module, under the nearest package.json or .git, not in tests, examples or hidden folders', () => {
  const project = mkdtempSync(join(tmpdir(), 'manifests-'));
  const write = (file, text) => {
    mkdirSync(join(project, file, '..'), { recursive: true });
    writeFileSync(join(project, file), text);
  };
  write('package.json', '{}');
  write('src/app.js', '');
  write('deploy/k8s/api.yaml', 'apiVersion: v1\nkind: Pod\n');
  write('compose.yml', 'services:\n  api: {}\n');
  write('config/settings.yaml', 'database: {pool: 10}\n');
  write('test/fixtures/broken.yaml', 'kind: [\n');
  write('.github/workflows/ci.yml', 'services:\n');
  write('node_modules/x/pod.yaml', 'kind: Pod\n');
  write('examples/demo/app.js', '');
  write('examples/demo/pod.yaml', 'apiVersion: v1\nkind: Pod\n');
  write('examples/other/pod.yaml', 'apiVersion: v1\nkind: Pod\n');
  expect(findProjectRoot(join(project, 'src'))).toBe(project);
  // Never above the experiments file's folder when the module is in it, never the home folder.
  const plain = mkdtempSync(join(tmpdir(), 'manifests-plain-'));
  mkdirSync(join(plain, 'service', 'src'), { recursive: true });
  writeFileSync(join(plain, 'package.json'), '{}');
  expect(findProjectRoot(join(plain, 'service', 'src'), { ceiling: join(plain, 'service') })).toBe(
    join(plain, 'service'),
  );
  expect(findProjectRoot(join(plain, 'service', 'src'), { home: plain })).toBe(join(plain, 'service', 'src'));
  expect(findProjectRoot(join(plain, 'service', 'src'))).toBe(plain);
  mkdirSync(join(plain, 'service', '.git'));
  expect(findProjectRoot(join(plain, 'service', 'src'))).toBe(join(plain, 'service'));
  const shown = (files) => files.map((file) => file.slice(project.length + 1));
  expect(shown(findManifestFiles(project, { along: join(project, 'src') }))).toEqual([
    'compose.yml',
    'deploy/k8s/api.yaml',
  ]);
  // A module in a skipped folder: the folders on the way to it are read.
  expect(shown(findManifestFiles(project, { along: join(project, 'examples/demo') }))).toEqual([
    'compose.yml',
    'deploy/k8s/api.yaml',
    'examples/demo/pod.yaml',
  ]);
});

test('--from: only the files named, paths as the experiments file sees them', () => {
  const read = readDeployment({
    from: [`${FIXTURES}deployment.yaml`, `${FIXTURES}compose.yaml`],
    start: '/nowhere',
    folder: join(FIXTURES, '..'),
  });
  expect(read.looked).toBeNull();
  expect(read.files).toEqual(['manifests/deployment.yaml', 'manifests/compose.yaml']);
  const { budgets, memory } = combineBudgets(read.sources.filter((source) => source.role !== 'init'));
  expect(budgets.map((budget) => budget.cpus)).toEqual([0.5, 1.5]);
  expect(budgets[1].sources.map(describeSource)).toEqual([
    'manifests/deployment.yaml: Deployment/api, container api',
    'manifests/compose.yaml: service worker',
  ]);
  expect(memory.docker).toBe('256m');
});
