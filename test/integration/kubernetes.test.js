// The Kubernetes backend against a real cluster: the one-node lab of scripts/kube-lab.sh (its own network namespace,
// containerd, API server, scheduler, controller manager and kubelet with the static CPU manager), brought up here and
// down after. Every run goes through the CLI as a person's would, and the backend itself through the contract's suite
// (test/support/backend-contract.js) that the fake and the Docker backend pass; after each test nothing of the project
// is left in the namespace.
import { parse } from 'csv-parse/sync';
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { parseCpuList } from '../../images/workload/lib/cpuset.js';
import { DEFAULT_NODE_MAJOR } from '../../runner/domain/axes.js';
import { openCluster } from '../../runner/kubernetes/cluster.js';
import { createKubernetesExecutor } from '../../runner/kubernetes/executor.js';
import { describeBackendContract, planContractRuns } from '../support/backend-contract.js';
import { createOwnRunner, waitFor } from '../support/docker-helpers.js';
import {
  CONTEXT,
  LAB_SCRIPT,
  LAB_UP_TIMEOUT_MS,
  NAMESPACE,
  runLab,
  startLab,
  writeLabConfig,
} from '../support/kube-lab.js';

const { run: runCli } = createOwnRunner();
const readRows = (file) => (existsSync(file) ? parse(readFileSync(file, 'utf8'), { columns: true }) : []);
const once = { search: 'grid', repetitions: 1, max_reruns: 0 };
const quick = { tasks: 2, iterations: 20000, keylen: 64 };
// Long enough to be caught running (abort, lost node), short enough to finish within the test after a resume.
const slow = { tasks: 2, iterations: 3_000_000, keylen: 64 };

let lab;
beforeAll(async () => {
  lab = await startLab();
}, LAB_UP_TIMEOUT_MS);

afterAll(async () => {
  await runLab('down');
});

afterEach(async () => {
  expect(await lab.admin.waitNothingLeft()).toEqual([]);
});

test('limits, exit codes, OOM and the deadline, each read from the API as a row', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-kube-'));
  const config = writeLabConfig(dir, lab.kubeconfig, {
    exclusive: {
      ...once,
      timeout: 60,
      memory: '256m',
      matrix: { workload: ['pbkdf2'], cpus: [1, 0.5] },
      params: { pbkdf2: quick },
    },
    exit3: {
      ...once,
      timeout: 60,
      memory: '256m',
      matrix: { workload: ['pbkdf2'], NODE_OPTIONS: ['--import=data:text/javascript,process.exit(3)'] },
      params: { pbkdf2: quick },
    },
    oom: {
      ...once,
      timeout: 60,
      memory: '96m',
      matrix: { workload: ['argon2'], uv_threadpool_size: [4] },
      params: { argon2: { tasks: 4, memoryCost: 262144, timeCost: 1, parallelism: 1 } },
    },
    deadline: { ...once, timeout: 3, matrix: { workload: ['pbkdf2'], cpus: [0.5] }, params: { pbkdf2: slow } },
  });
  const result = await runCli(['run', '--config', config, '--out', join(dir, 'out')]);
  expect(result.exitCode).toBe(1);
  const rows = (name) => readRows(join(dir, 'out', name, 'runs.csv'));

  const [whole, half] = [1, 0.5].map((cpus) => rows('exclusive').find((row) => Number(row.cpus) === cpus));
  expect(whole).toMatchObject({ status: 'ok', seen_cpu_quota: '' });
  // One CPU of the node's own, not CPU 0 (kept for the system by the static CPU manager).
  expect(parseCpuList(whole.seen_cpuset)).toHaveLength(1);
  expect(whole.seen_cpuset).not.toBe('0');
  expect(half).toMatchObject({ status: 'ok', seen_cpu_quota: '0.5' });
  expect(parseCpuList(half.seen_cpuset).length).toBeGreaterThan(1);

  expect(rows('exit3')).toEqual([expect.objectContaining({ status: 'failed', exit_code: '3' })]);
  expect(rows('exit3')[0].error).toMatch(/exited with code 3/);
  expect(rows('oom')).toEqual([expect.objectContaining({ status: 'oom', exit_code: '137' })]);
  expect(rows('deadline')).toEqual([expect.objectContaining({ status: 'timeout', wall_ms: '' })]);

  const info = JSON.parse(readFileSync(join(dir, 'out', 'exclusive', 'run.json'), 'utf8'));
  expect(info.kubernetes).toMatchObject({ context: 'kube-lab', namespace: 'node-threads-lab', lanes: 1 });
  expect(info.engines).toEqual([
    expect.objectContaining({ name: 'kube-lab-node', cpus: 2, cpu_manager: 'static', cpu_model: expect.any(String) }),
  ]);
});

test('the http server and its load generator as one pod, each with its own limits', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-kube-'));
  const config = writeLabConfig(dir, lab.kubeconfig, {
    pair: {
      ...once,
      timeout: 120,
      memory: '256m',
      matrix: { workload: ['http'], cpus: [1] },
      params: { http: { duration: 2, warmup: 1, connections: 8, loader: { cpus: 0.5 } } },
    },
  });
  const result = await runCli(['run', '--config', config, '--out', join(dir, 'out')]);
  expect(result.exitCode).toBe(0);
  const [row] = readRows(join(dir, 'out', 'runs.csv'));
  expect(row).toMatchObject({ status: 'ok', seen_cpu_quota: '', loader_cpus: '0.5', loader_shared: 'false' });
  expect(parseCpuList(row.seen_cpuset)).toHaveLength(1);
  expect(Number(row.requests_per_sec)).toBeGreaterThan(0);
});

test('Ctrl-C deletes the Job in flight (no pod left); a killed runner leaves one that the next start removes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-kube-'));
  const config = writeLabConfig(dir, lab.kubeconfig, {
    long: { ...once, timeout: 120, matrix: { workload: ['pbkdf2'], cpus: [0.5] }, params: { pbkdf2: slow } },
  });
  const interrupted = runCli(['run', '--config', config, '--out', join(dir, 'a')]);
  await lab.admin.waitRunningPod('long');
  interrupted.kill('SIGINT');
  expect((await interrupted).exitCode).toBe(130);
  expect(await lab.admin.listLeft()).toEqual([]);

  const killed = runCli(['run', '--config', config, '--out', join(dir, 'b')]);
  await lab.admin.waitRunningPod('long');
  killed.kill('SIGKILL');
  await killed;
  expect((await lab.admin.listLeft()).length).toBeGreaterThan(0);
  // The next start, here a plan-free run of a tiny matrix, removes the orphan before its own first run.
  const next = writeLabConfig(join(dir), lab.kubeconfig, {
    tiny: {
      ...once,
      timeout: 60,
      memory: '256m',
      matrix: { workload: ['pbkdf2'], cpus: [0.5] },
      params: { pbkdf2: quick },
    },
  });
  const cleaned = await runCli(['run', '--config', next, '--out', join(dir, 'c')]);
  expect(cleaned.exitCode).toBe(0);
  expect(cleaned.stderr).toMatch(/Removed 1 container\(s\) left behind/);
});

// The backend goes away in the middle of a run; once it is back, the folder is resumed. `stop` and `start` are the
// lab's commands for the part that goes away.
async function loseAndResume({ stop, start, said }) {
  const dir = mkdtempSync(join(tmpdir(), 'lab-kube-'));
  const out = join(dir, 'out');
  const config = writeLabConfig(dir, lab.kubeconfig, {
    lost: {
      ...once,
      repetitions: 3,
      timeout: 120,
      memory: '256m',
      matrix: { workload: ['pbkdf2'], cpus: [0.5] },
      params: { pbkdf2: { tasks: 2, iterations: 600_000, keylen: 64 } },
    },
  });
  const child = runCli(['run', '--config', config, '--out', out, '--seed', '7']);
  await waitFor(() => readRows(join(out, 'runs.csv')).length >= 1, { timeoutMs: 120_000 });
  await lab.admin.waitRunningPod('lost');
  await runLab(stop);
  let result;
  try {
    result = await child;
  } finally {
    await runLab(start);
  }
  expect(result.exitCode).toBe(1);
  expect(result.stderr).toMatch(said);
  const kept = readRows(join(out, 'runs.csv'));
  expect(kept.length).toBeGreaterThanOrEqual(1);
  expect(kept.length).toBeLessThan(3);
  await waitFor(async () => (await runLab('status').catch(() => '')).includes('Ready;'), { timeoutMs: 120_000 });

  // The Job in flight, whose runner is gone, is removed by the resumed run's start.
  const resumed = await runCli(['run', '--resume', out]);
  expect(resumed.exitCode).toBe(0);
  const rows = readRows(join(out, 'runs.csv'));
  expect(rows.map((row) => row.repetition).sort()).toEqual(['1', '2', '3']);
  expect(rows.every((row) => row.status === 'ok')).toBe(true);
}

test('a stopped kubelet is a lost node: rows kept, exit 1; --resume finishes exactly the rest', () =>
  loseAndResume({
    stop: 'stop-kubelet',
    start: 'start-kubelet',
    said: /node kube-lab-node of kubernetes:kube-lab\/node-threads-lab is not Ready/,
  }));

test('a stopped API server is a lost backend: rows kept, exit 1; --resume finishes exactly the rest', () =>
  loseAndResume({
    stop: 'stop-apiserver',
    start: 'start-apiserver',
    said: /the Kubernetes API server of kubernetes:kube-lab\/node-threads-lab stopped answering/,
  }));

test('the default experiments.yml and the login-service example, on the cluster (reduced matrices)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-kube-'));
  // The default file as shipped, on the one CPU the node gives a run whole: pbkdf2 at 1 CPU, its claim for 1 CPU.
  const shipped = parseYaml(readFileSync(fileURLToPath(new URL('../../experiments.yml', import.meta.url)), 'utf8'));
  const [[name, experiment]] = Object.entries(shipped.experiments);
  const { adaptive, ...rest } = experiment;
  expect(adaptive).toBeDefined();
  const reduced = {
    ...rest,
    ...once,
    repetitions: 2,
    matrix: { ...experiment.matrix, workload: ['pbkdf2'], cpus: [1], uv_threadpool_size: [1, 4] },
    params: { pbkdf2: { ...experiment.params.pbkdf2, iterations: 20000 } },
    claims: experiment.claims.filter((claim) => claim.where?.cpus === 1),
  };
  const config = writeLabConfig(dir, lab.kubeconfig, { [name]: reduced });
  const result = await runCli(['run', '--config', config, '--out', join(dir, 'default')]);
  expect(result.exitCode).toBe(0);
  const rows = readRows(join(dir, 'default', 'runs.csv'));
  expect(rows).toHaveLength(4);
  for (const row of rows) expect(parseCpuList(row.seen_cpuset)).toHaveLength(1);
  expect(readRows(join(dir, 'default', 'verdicts.csv')).map((row) => row.says)).toContain(reduced.claims[0].says);
  expect(readRows(join(dir, 'default', 'advice.csv')).length).toBeGreaterThan(0);

  // The example's folder goes into an image of its own, which the lab loads onto its node (the `push` command).
  const service = join(dir, 'own-service');
  cpSync(fileURLToPath(new URL('../../examples/own-service', import.meta.url)), service, { recursive: true });
  const example = parseYaml(readFileSync(join(service, 'experiments.yml'), 'utf8')).experiments['login-service'];
  const login = {
    ...example,
    max_reruns: 0,
    matrix: { ...example.matrix, uv_threadpool_size: [1, 2], WEB_CONCURRENCY: [1] },
    params: { http: { ...example.params.http, loader: { cpus: 0.5 } } },
  };
  const serviceConfig = writeLabConfig(
    service,
    lab.kubeconfig,
    { 'login-service': login },
    { push: `bash ${LAB_SCRIPT} load --image {image}` },
  );
  const served = await runCli(['run', '--config', serviceConfig, '--out', join(dir, 'login')]);
  expect(served.exitCode).toBe(0);
  expect(served.stderr).toMatch(/user image: node-threads-lab\/user:[0-9a-f]{12}/);
  const logins = readRows(join(dir, 'login', 'runs.csv'));
  expect(logins.length).toBeGreaterThanOrEqual(2);
  for (const row of logins) expect(row).toMatchObject({ status: 'ok', loader_cpus: '0.5' });
  for (const row of logins) expect(Number(row.requests_per_sec)).toBeGreaterThan(0);
});

// The same suite of the contract's rules the fake and the Docker backend pass (test/support/backend-contract.js).
const contractRun = planContractRuns({ cpus: 0.5 });

describeBackendContract('the Kubernetes backend', () => {
  const options = {
    images: new Map([[DEFAULT_NODE_MAJOR, { tag: process.env.LAB_TEST_IMAGE }]]),
    imageRef: (tag) => tag,
    pullPolicy: 'Never',
  };
  const where = { kubeconfig: lab.kubeconfig, context: CONTEXT, namespace: NAMESPACE };
  // The lab's kubeconfig with an API server address nothing listens on.
  const gone = join(mkdtempSync(join(tmpdir(), 'lab-kube-')), 'kubeconfig');
  writeFileSync(gone, readFileSync(lab.kubeconfig, 'utf8').replace(/server: \S+/, 'server: https://127.0.0.1:1'));
  return {
    backend: createKubernetesExecutor(openCluster(where), options),
    lostBackend: createKubernetesExecutor(openCluster({ ...where, kubeconfig: gone }), options),
    // idle waits a minute; its Job's deadline cuts it at 2 s: a timeout, which is a row like any other.
    runs: { ok: contractRun('pbkdf2'), failing: { ...contractRun('idle'), timeoutMs: 2000 } },
  };
});
