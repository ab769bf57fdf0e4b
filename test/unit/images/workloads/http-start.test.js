// `http.start`, the service's own start command: what its config means (the mount, the defaults, the env a cell
// gives it), what is refused at config time (exit 2 at the key), and what the image reads of it from /proc.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateConfig } from '../../../../runner/config/validate.js';
import { planExperiments } from '../../../../runner/plan/plan-runs.js';
import { findPlanWarnings } from '../../../../runner/plan/plan-warnings.js';
import { combineHttpRaw } from '../../../../runner/collect/http-result.js';
import { judgeRun } from '../../../../runner/collect/parse-result.js';
import { countPortConnections, toChildEnv } from '../../../../images/workload/http/start-command.js';

const SERVICE = fileURLToPath(new URL('../../../../examples/own-service/', import.meta.url));
const HOST = { cpus: 2, cpuIds: [0, 1] };
const load = (experiment) =>
  validateConfig({ experiments: { own: experiment } }, { file: path.join(SERVICE, 'experiments.yml'), host: HOST });
const plan = (experiment) => planExperiments(load(experiment), { defaultNodeMajor: 24 })[0];
const messages = (experiment) => {
  try {
    plan(experiment);
  } catch (error) {
    return (error.errors ?? [error]).map((each) => `${each.path}: ${each.message}`);
  }
  return [];
};

test("the service's folder is mounted read-only; port, readyTimeout and the request get their defaults in the container only", () => {
  const { runs, cells } = plan({
    matrix: { workload: ['http'], uv_threadpool_size: [2], WEB_CONCURRENCY: [2] },
    params: { http: { start: 'node src/server.js', ready: '/health' } },
  });
  const [run] = runs;
  expect(run.mounts).toEqual([{ source: SERVICE.replace(/\/$/, ''), target: '/lab/user', readOnly: true }]);
  const { params } = JSON.parse(run.env.LAB_SPEC);
  expect(params).toMatchObject({
    start: 'node src/server.js',
    port: 3000,
    ready: '/health',
    readyTimeout: 60,
    request: { path: '/', method: 'GET', headers: {}, body: '', status: 200 },
  });
  expect(params.root).toBeUndefined();
  // The cell's environment is the server container's, so the start command's.
  expect(run.env).toMatchObject({ UV_THREADPOOL_SIZE: '2', WEB_CONCURRENCY: '2' });
  // No default entered the params the cell id hashes: http cells without `start` keep their ids.
  expect(Object.keys(cells[0].params)).not.toContain('port');
});

test('cluster and workers are refused with a start command, saying why and what to vary instead', () => {
  expect(
    messages({ matrix: { workload: ['http'], cluster: [0, 2] }, params: { http: { start: 'node src/server.js' } } }),
  ).toEqual([
    "experiments.own.matrix.cluster: `cluster` needs the lab's harness around your code, and `start` runs your service as it is: the lab cannot fork it into processes",
  ]);
  expect(
    messages({ matrix: { workload: ['http'], workers: [2] }, params: { http: { start: ['node', 'src/server.js'] } } }),
  ).toEqual([
    "experiments.own.matrix.workers: `workers` needs the lab's harness around your code, and `start` runs your service as it is: the lab cannot move its requests to worker threads",
  ]);
});

test("start beside app, the lab's control port, the /fast probe, a missing root: config errors at their keys", () => {
  expect(
    messages({
      matrix: { workload: ['http'] },
      params: {
        http: {
          start: 'node src/server.js',
          app: { file: 'src/server.js' },
          port: 3001,
          root: 'nowhere',
        },
      },
    }),
  ).toEqual([
    'experiments.own.params.http.start: expected `start` or `app`, found both',
    "experiments.own.params.http.port: expected a port other than 3001, the lab's control port inside the container",
    `experiments.own.params.http.root: expected a folder, found nothing at ${path.join(SERVICE, 'nowhere')}`,
  ]);
  expect(
    messages({ matrix: { workload: ['http'] }, params: { http: { start: 'node src/server.js', fastProbe: true } } }),
  ).toEqual(['experiments.own.params.http.fastProbe: expected no `fastProbe` with `start`, found true']);
});

test("start's keys without start, and the lab's work beside it, are warned as ignored", () => {
  const warned = (http) => {
    const config = load({ matrix: { workload: ['http'] }, params: { http } });
    const [planned] = planExperiments(config, { defaultNodeMajor: 24 });
    return findPlanWarnings(planned, config)
      .map((warning) => `${warning.path}: ${warning.message}`)
      .filter((warning) => !warning.includes('cannot be measured cleanly on this'));
  };
  expect(warned({ port: 8080, ready: '/health' })).toEqual([
    'experiments.own.params.http.port: `port` is ignored without `start`: it describes your own start command',
    'experiments.own.params.http.ready: `ready` is ignored without `start`: it describes your own start command',
  ]);
  expect(warned({ start: 'node src/server.js', work: 'spin' })).toEqual([
    "experiments.own.params.http.work: `work` is ignored beside `start:`: your service answers the requests, the lab's work never runs",
  ]);
});

test("the connections the service holds on its port are counted from /proc/net, either family; the client's side and closed ones are not", () => {
  const tables = {
    '/proc/net/tcp': [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 00000000:0BB8 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 1 1',
      '   1: 0100007F:0BB8 0100007F:A1B2 01 00000000:00000000 00:00000000 00000000  1000        0 2 1',
      '   2: 0100007F:A1B2 0100007F:0BB8 01 00000000:00000000 00:00000000 00000000  1000        0 3 1',
      '   3: 0100007F:0BB8 0100007F:A1B3 06 00000000:00000000 00:00000000 00000000     0        0 0 3',
      '   4: 0100007F:0BB8 0100007F:A1B4 08 00000000:00000000 00:00000000 00000000  1000        0 4 1',
    ].join('\n'),
    '/proc/net/tcp6': [
      '  sl  local_address                         remote_address                        st',
      '   0: 0000000000000000FFFF00000100007F:0BB8 0000000000000000FFFF00000100007F:C001 01',
    ].join('\n'),
  };
  expect(countPortConnections(3000, (file) => tables[file] ?? null)).toBe(3);
  expect(countPortConnections(3000, () => null)).toBe(0);
});

test("the start command's environment is the cell's, without the lab's own variables", () => {
  expect(
    toChildEnv({ LAB_SPEC: '{}', UV_THREADPOOL_SIZE: '2', NODE_OPTIONS: '--max-old-space-size=256', PATH: '/bin' }),
  ).toEqual({ UV_THREADPOOL_SIZE: '2', NODE_OPTIONS: '--max-old-space-size=256', PATH: '/bin' });
});

test('a server that exits with the not-ready code gives a not_ready row; any other exit, a failed one', () => {
  const pair = (exitCode) => ({
    server: { exitCode, stdout: '', stderr: 'workload failed: your start command did not answer\n', oomKilled: false },
    loader: { exitCode: 137, stdout: '', stderr: '', oomKilled: false },
    timedOut: false,
    aborted: false,
    serverEndedFirst: true,
    containerMs: 10,
    containerId: 'x',
  });
  const judge = (exitCode) => judgeRun(combineHttpRaw(pair(exitCode), { cpus: 1, cpuset: '' }), { timeoutMs: 60000 });
  expect(judge(3)).toMatchObject({
    status: 'not_ready',
    error: 'the server never became ready; stderr: [server] workload failed: your start command did not answer',
  });
  expect(judge(1).status).toBe('failed');
});
