// The contract between the runner and the image, for every workload in the registry: the parameters the
// runner fills in are the ones the image would fill in itself, and the `metrics` the image's result line
// carries are exactly the runs.csv columns the runner made room for. A new workload module is checked
// here without a line of test code.
import { execa } from 'execa';
import { fileURLToPath } from 'node:url';
import { combineHttpRaw } from '../../../../runner/collect/http-result.js';
import { toRows } from '../../../../runner/collect/to-rows.js';
import { primaryMetrics } from '../../../../runner/domain/metrics.js';
import { fillAllParams, workloadColumns, WORKLOAD_NAMES, WORKLOADS } from '../../../../runner/domain/workloads.js';
import { buildSchema } from '../../../../runner/config/schema.js';
import { planExperiments } from '../../../../runner/plan/plan-runs.js';
import { buildLoaderResult } from '../../../../images/workload/http/load-generator.js';
import { buildServerResult } from '../../../../images/workload/http/server-result.js';
import { parseSpec } from '../../../../images/workload/spec.js';
import { fakeResult } from '../../../../runner/backend/fake.js';

const RUN_JS = fileURLToPath(new URL('../../../../images/workload/run.js', import.meta.url));
const CPU_WORKLOADS = WORKLOAD_NAMES.filter((name) => WORKLOADS[name].runTask);
// The cheapest run of each CPU workload: a test of the contract, not of speed.
const QUICK = {
  pbkdf2: { tasks: 2, iterations: 10 },
  argon2: { tasks: 1, memoryCost: 1024, timeCost: 1, parallelism: 1 },
  sum: { tasks: 2, n: 1000 },
  idle: { settleMs: 10 },
  script: { file: 'test/fixtures/own-code/bench/functions.js', export: 'fine', tasks: 2 },
};

function planOf(workload, params = {}) {
  const config = {
    file: 'x.yml',
    experiments: [
      {
        name: 'contract',
        repetitions: 1,
        timeout: 60,
        memory_bytes: 2 ** 30,
        env: {},
        include: [],
        exclude: [],
        matrix: { workload: [workload] },
        params: fillAllParams({ [workload]: params }),
      },
    ],
  };
  return planExperiments(config, { defaultNodeMajor: 24 })[0];
}

describe.each(WORKLOAD_NAMES)('workload %s', (name) => {
  const workload = WORKLOADS[name];

  test('the runner fills in the same parameters as the image', () => {
    expect(fillAllParams({})[name]).toEqual(parseSpec(JSON.stringify({ workload: name })).params);
  });

  test('its parameters are its schema part, every one with a title and description', () => {
    expect(buildSchema().definitions[`params.${name}`]).toMatchObject({
      description: workload.description,
      properties: workload.params,
    });
    for (const schema of Object.values(workload.params))
      expect(schema).toMatchObject({ title: expect.any(String), description: expect.any(String) });
  });

  test('it runs in the container one way: tasks, or a run of its own, or (external) none of our code', () => {
    if (workload.external) {
      expect([workload.runTask, workload.runPrimary, workload.serves]).toEqual([undefined, undefined, undefined]);
      return;
    }
    expect(typeof workload.runTask === 'function').toBe(typeof workload.runPrimary !== 'function');
    if (workload.serves) expect(workload.runPrimary).toEqual(expect.any(Function));
  });

  test('its primary metrics are columns of its rows, with a direction and a unit', () => {
    const columns = ['wall_ms', ...workloadColumns([name])];
    for (const metric of primaryMetrics(name)) {
      expect(columns).toContain(metric.column);
      expect(['lower', 'higher']).toContain(metric.better);
      expect(metric.unit).not.toBe('');
    }
  });
});

/** The run's environment with the user's files where they are on the host, not where the container mounts them. */
function onHost(run) {
  const [mount] = run.mounts;
  if (!mount) return run.env;
  const spec = JSON.parse(run.env.LAB_SPEC);
  spec.params.file = spec.params.file.replace(mount.target, mount.source);
  return { ...run.env, LAB_SPEC: JSON.stringify(spec) };
}

describe.each(CPU_WORKLOADS)("%s on the host: the image's result line fits the runner's columns", (name) => {
  test("metrics keys = the workload's columns, toRows reads the line, the fake executor has its shape", async () => {
    const [run] = planOf(name, QUICK[name]).runs;
    const started = new Date();
    const child = await execa(process.execPath, [RUN_JS], { env: onHost(run), reject: false, timeout: 60_000 });
    expect(child.stderr).toBe('');
    const result = JSON.parse(child.stdout);
    // A workload of the user's code adds user_<key> for what that code returns (the fixture: `answer`).
    const userKeys = WORKLOADS[name].userColumns ? ['user_answer'] : [];
    expect(Object.keys(result.metrics).sort()).toEqual([...workloadColumns([name]), ...userKeys].sort());
    const { row, status } = toRows(run, {
      ...child,
      oomKilled: false,
      timedOut: false,
      containerMs: 1,
      startedAt: started,
      finishedAt: new Date(),
    });
    expect(status).toBe('ok');
    for (const { column } of primaryMetrics(name)) expect(row[column]).toEqual(expect.any(Number));
    // The fake executor's canned line (what the fast pipeline tests feed the runner) has the image's shape.
    const fake = fakeResult(run);
    expect(Object.keys(fake).sort()).toEqual(Object.keys(result).sort());
    expect(Object.keys(fake.seen).sort()).toEqual(Object.keys(result.seen).sort());
  });
});

test("http: the server's line, the loader's line and the runner's loader limits make exactly the http columns", () => {
  const server = buildServerResult({
    t0: 0,
    readyAt: 5,
    startAt: 10,
    stopAt: 1010,
    drainMs: 3,
    seen: {},
    counters: { nrThrottled: 0, nrPeriods: 0, throttledMs: null },
    memoryPeakBytes: null,
    threadCounts: { peakThreads: 7, poolThreads: 4 },
    loops: [{ count: 10, mean_ms: 1, p99_ms: 2 }],
    usages: [{ cpuUserUs: 1, cpuSystemUs: 1, maxRssKiB: 1024 }],
    served: [42],
  });
  const loader = buildLoaderResult({
    periodMs: 1000,
    requestsPerSec: 500,
    latency: { p50: 1, p90: 2, p99: 3, max: 4 },
    main: { duration: 1, throughput: { total: 100 }, errors: 0, timeouts: 0, non2xx: 0 },
    fast: { p99: 1 },
    probe: { errors: 0, non2xx: 0 },
    cpuMs: 100,
    counters: { throttledMs: null },
    saturation: { saturated: false, reasons: [] },
  });
  const line = (result) => ({ exitCode: 0, stdout: `${JSON.stringify(result)}\n`, stderr: '', oomKilled: false });
  const raw = combineHttpRaw(
    {
      server: line(server),
      loader: line(loader),
      timedOut: false,
      aborted: false,
      serverEndedFirst: false,
      containerMs: 1,
      containerId: 'x',
    },
    { cpus: 1, cpuset: '' },
  );
  expect(Object.keys(JSON.parse(raw.stdout).metrics).sort()).toEqual(workloadColumns(['http']).sort());
});
