// The pure parts of the user's kinds: config checks and planning, the user's errors as the error
// column shows them, the numbers a function or a command returns, and a command's result line.
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { validateConfig } from '../../../../runner/config/validate.js';
import { planExperiments } from '../../../../runner/plan/plan-runs.js';
import { buildCommandResult } from '../../../../runner/collect/command-result.js';
import { readLastLineNumbers } from '../../../../images/workload/lib/user-numbers.js';
import { parseEngineTime } from '../../../../runner/docker/runs/command-run.js';
import { explainImportError } from '../../../../images/workload/user/load-export.js';
import { formatUserError } from '../../../../images/workload/user/user-error.js';
import { measure, readTaskValues } from '../../../../images/workload/workloads/script.js';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/own-code/', import.meta.url));
const HOST = { cpus: 2, cpuIds: [0, 1] };

function load(experiment) {
  const raw = { experiments: { own: experiment } };
  return validateConfig(raw, { file: path.join(FIXTURES, 'experiments.yml'), host: HOST });
}

describe("config of the user's kinds", () => {
  test("a script file is resolved against the experiments file's folder and mounted read-only", () => {
    const config = load({
      matrix: { workload: ['script'] },
      params: { script: { file: 'bench/functions.js', export: 'fine', args: { n: 3 } } },
    });
    const [plan] = planExperiments(config, { defaultNodeMajor: 24 });
    const [run] = plan.runs;
    expect(run.mounts).toEqual([{ source: path.join(FIXTURES, 'bench'), target: '/lab/user', readOnly: true }]);
    expect(JSON.parse(run.env.LAB_SPEC).params).toEqual({
      file: '/lab/user/functions.js',
      export: 'fine',
      tasks: 1,
      args: { n: 3 },
    });
  });

  test('root widens the mount; the file keeps its path under it', () => {
    const config = load({
      matrix: { workload: ['script'] },
      params: { script: { file: 'bench/functions.js', root: '.' } },
    });
    const [run] = planExperiments(config, { defaultNodeMajor: 24 })[0].runs;
    expect(run.mounts[0].source).toBe(FIXTURES.replace(/\/$/, ''));
    expect(JSON.parse(run.env.LAB_SPEC).params.file).toBe('/lab/user/bench/functions.js');
  });

  test('a missing file, a file outside root and a missing params block are config errors', () => {
    const messages = (experiment) => {
      try {
        load(experiment);
      } catch (error) {
        return (error.errors ?? [error]).map((each) => `${each.path}: ${each.message}`);
      }
      return [];
    };
    expect(messages({ matrix: { workload: ['script'] }, params: { script: { file: 'nope.js' } } })).toEqual([
      expect.stringMatching(
        /^experiments\.own\.params\.script\.file: expected a JavaScript file, found nothing at .*nope\.js$/,
      ),
    ]);
    expect(
      messages({ matrix: { workload: ['script'] }, params: { script: { file: 'bench/functions.js', root: 'addon' } } }),
    ).toEqual([expect.stringMatching(/^experiments\.own\.params\.script\.file: expected a file inside root/)]);
    expect(messages({ matrix: { workload: ['script'] } })).toEqual([
      'experiments.own.matrix.workload: workload script needs `params.script.file`, found none',
    ]);
    expect(messages({ matrix: { workload: ['command'] }, params: { command: { tasks: 2 } } })).toEqual([
      'experiments.own.params.command: workload command needs `params.command.argv`, found none',
    ]);
  });

  test('an http app gets its defaults and its file inside the mount', () => {
    const config = load({
      matrix: { workload: ['http'] },
      params: { http: { app: { file: 'bench/functions.js', export: 'fine' } } },
    });
    const [run] = planExperiments(config, { defaultNodeMajor: 24 })[0].runs;
    expect(JSON.parse(run.env.LAB_SPEC).params.app).toEqual({
      file: '/lab/user/functions.js',
      export: 'fine',
      path: '/',
      method: 'GET',
      headers: {},
      body: '',
      status: 200,
    });
    expect(run.mounts).toHaveLength(1);
  });

  test('bursts only send a bare GET, so an app route with another method is refused for load: burst', () => {
    expect(() =>
      load({
        matrix: { workload: ['http'] },
        params: { http: { load: 'burst', app: { file: 'bench/functions.js', method: 'POST', body: '{}' } } },
      }),
    ).toThrow(/expected GET without a body for `load: burst`, found POST with a body/);
  });

  test('command refuses the axes of a Node.js process the lab does not start', () => {
    const config = load({
      matrix: { workload: ['command', 'script'], cluster: [0, 2] },
      params: { command: { argv: ['perl', '-e', '1'] }, script: { file: 'bench/functions.js' } },
    });
    expect(() => planExperiments(config, { defaultNodeMajor: 24 })).toThrow(
      /`cluster` has no meaning for workload command/,
    );
    const excluded = load({
      matrix: { workload: ['command', 'script'], cluster: [0, 2] },
      exclude: [
        { workload: 'command', cluster: 0 },
        { workload: 'command', cluster: 2 },
      ],
      params: { command: { argv: ['perl', '-e', '1'] }, script: { file: 'bench/functions.js' } },
    });
    expect(planExperiments(excluded, { defaultNodeMajor: 24 })[0].cells.map((cell) => cell.workload)).toEqual([
      'script',
      'script',
    ]);
  });
});

describe("the user's errors", () => {
  test('their message and their own frames, without the mount point, on one line', () => {
    const error = new RangeError('width must be positive');
    error.stack = [
      'RangeError: width must be positive',
      '    at resize (file:///lab/user/bench/resize.js:12:11)',
      '    at startTask (file:///app/spread/run-thread-tasks.js:33:24)',
      '    at Array.map (<anonymous>)',
      '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
      '    at helper (/lab/user/node_modules/lib/index.js:3:9)',
    ].join('\n');
    expect(formatUserError(error)).toBe(
      'RangeError: width must be positive | at resize (bench/resize.js:12:11) | at helper (node_modules/lib/index.js:3:9)',
    );
    expect(formatUserError('nope')).toBe('threw "nope" (not an Error, so no stack)');
  });

  test('an addon for another platform names its package and the fix', () => {
    const cause = Object.assign(
      new Error('/lab/user/node_modules/@img/sharp-darwin-arm64/lib/sharp.node: invalid ELF header'),
      { code: 'ERR_DLOPEN_FAILED' },
    );
    const error = explainImportError(cause, '/lab/user/resize.js');
    expect(error.code).toBe('ERR_ADDON_UNLOADABLE');
    expect(error.message).toMatch(
      /^the native addon of package `@img\/sharp-darwin-arm64` \(node_modules\/@img\/sharp-darwin-arm64\/lib\/sharp\.node\) does not load on Linux/,
    );
    expect(error.message).toMatch(/npm rebuild @img\/sharp-darwin-arm64/);
  });

  test('a package that is not in the mounted folder says to widen root', () => {
    const cause = Object.assign(new Error("Cannot find package 'sharp' imported from /lab/user/resize.js"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    expect(explainImportError(cause, '/lab/user/resize.js').message).toMatch(
      /resize\.js could not be loaded: Cannot find package 'sharp' imported from resize\.js\. .*set `root:`/,
    );
  });
});

describe("numbers the user's code returns", () => {
  test("a function's plain object of finite numbers, averaged per run as user_<key>", () => {
    expect(readTaskValues({ bytes: 10, name: 'x', ratio: NaN })).toEqual({ bytes: 10 });
    expect(readTaskValues(Buffer.from('x'))).toBeUndefined();
    expect(readTaskValues(undefined)).toBeUndefined();
    expect(readTaskValues([1, 2])).toBeUndefined();
    expect(measure({ records: [{ values: { bytes: 10 } }, { values: { bytes: 20, hits: 1 } }, {}] })).toEqual({
      user_bytes: 15,
      user_hits: 1,
    });
  });

  test("a command's last stdout line, if it is a JSON object", () => {
    expect(readLastLineNumbers('warming up\n{"ops": 1200.5, "label": "a", "ok": true}\n')).toEqual({ ops: 1200.5 });
    expect(readLastLineNumbers('{"ops": 1}\nbye\n')).toEqual({});
    expect(readLastLineNumbers('{not json\n')).toEqual({});
  });
});

describe("a command's result line", () => {
  const snapshot = (totalMs) => ({
    version: 1,
    cpuQuota: 0.5,
    cpuset: '0-1',
    nrPeriods: 10,
    nrThrottled: 4,
    throttledMs: 30,
    totalMs,
    userMs: totalMs - 5,
    systemMs: 5,
    memoryPeakBytes: 50 * 2 ** 20,
  });
  const task = (index, startedMs, finishedMs, totalMs, stdout = '') => ({
    task: index,
    startedMs,
    finishedMs,
    exitCode: 0,
    stdout,
    watch: { found: true, final: false, snapshot: totalMs === null ? null : snapshot(totalMs) },
  });

  test("wall is the sum of the commands' lifetimes; CPU and throttling add up; memory is the highest peak", () => {
    const result = buildCommandResult([task(0, 1000, 1400, 390, '{"n": 2}\n'), task(1, 2000, 2500, 410, '{"n": 4}\n')]);
    expect(result).toMatchObject({
      wall_ms: 900,
      tasks: [
        { task: 0, start_ms: 0, end_ms: 400 },
        { task: 1, start_ms: 1000, end_ms: 1500 },
      ],
      cpu_total_ms: 800,
      throttled_periods: 8,
      cgroup_memory_peak_mb: 50,
      seen: { cpu_quota: 0.5, cpuset: '0-1', cgroup_version: 1 },
      metrics: { user_n: 3, cgroup_reading_final: false },
    });
  });

  test("the host's windows add up over the tasks as wall time does; a task without one leaves the host reading unknown", () => {
    const withHost = (each, host) => ({ ...each, watch: { ...each.watch, host } });
    const tasks = [
      withHost(task(0, 1000, 1400, 390), { cpu_ms: 500, window_ms: 402, cpus: 2 }),
      withHost(task(1, 2000, 2500, 410), { cpu_ms: 600.5, window_ms: 503, cpus: 2 }),
    ];
    expect(buildCommandResult(tasks).host).toEqual({ cpu_ms: 1100.5, window_ms: 905, cpus: 2 });
    expect(buildCommandResult([tasks[0], task(1, 2000, 2500, 410)]).host).toBeNull();
  });

  test('a task without a reading leaves the totals unknown, not smaller', () => {
    const result = buildCommandResult([task(0, 0, 100, 90), task(1, 200, 300, null)]);
    expect(result.cpu_total_ms).toBeNull();
    expect(result.cgroup_memory_peak_mb).toBe(50);
  });

  test('engine times keep their sub-millisecond digits', () => {
    expect(parseEngineTime('2026-11-23T08:07:23.439123456Z') - parseEngineTime('2026-11-23T08:07:23.438Z')).toBeCloseTo(
      1.123456,
      3,
    );
    expect(parseEngineTime('0001-01-01T00:00:00Z')).toBe(Date.parse('0001-01-01T00:00:00Z'));
  });
});
