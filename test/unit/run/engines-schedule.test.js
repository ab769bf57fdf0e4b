// Slots, lane assignment and the dispatcher: pure parts, driven with fake lanes.
import { parse } from 'csv-parse/sync';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkSameMachines } from '../../../runner/docker/engine-set.js';
import { backendLost } from '../../../runner/backend/contract.js';
import { createLaneAssigner } from '../../../runner/run/assign-lanes.js';
import { planExperiments } from '../../../runner/plan/plan-runs.js';
import { checkCellsFit, cutSlots, placeLimits } from '../../../runner/plan/slots.js';
import { runMatrix } from '../../../runner/run/run-matrix.js';
import { dispatchRuns } from '../../../runner/run/dispatch-runs.js';
import { createFakeExecutor, createFakeLanes } from '../../../runner/backend/fake.js';

function planOf(matrix, { repetitions = 1, include = [], seed = 1 } = {}) {
  const config = {
    file: 'x.yml',
    experiments: [
      {
        name: 'exp',
        repetitions,
        timeout: 10,
        memory_bytes: 2 ** 30,
        env: {},
        include,
        exclude: [],
        matrix,
        params: { pbkdf2: { tasks: 1 } },
      },
    ],
  };
  return planExperiments(config, { defaultNodeMajor: 24, seed })[0];
}

function lanesOf(engines, slots = 1) {
  return engines.flatMap((engine) =>
    Array.from({ length: slots }, (_, index) => ({ id: `${engine}#${index}`, engine, slot: { index } })),
  );
}

describe('cutSlots and placeLimits', () => {
  test('N disjoint, equal, contiguous slots; leftover CPUs stay unused', () => {
    expect(cutSlots([0, 1, 2, 3], 2).map((slot) => slot.cpuset)).toEqual(['0-1', '2-3']);
    expect(cutSlots([0, 1, 2, 3, 4], 2).map((slot) => slot.cpuset)).toEqual(['0-1', '2-3']);
    expect(cutSlots([4, 5, 6, 7], 4).map((slot) => slot.cpuIds)).toEqual([[4], [5], [6], [7]]);
  });

  test('more slots than CPUs is a usage error', () => {
    expect(() => cutSlots([0, 1], 3, 'laptop')).toThrow(
      /--slots 3: engine laptop has 2 CPU\(s\) \(0-1\), so at most 2 slot\(s\)/,
    );
  });

  test("a cpuset counts from the slot's first CPU; no cpuset means the whole slot; one slot changes nothing", () => {
    const [, second] = cutSlots([0, 1, 2, 3], 2);
    expect(placeLimits({ cpusetCpus: '0', nanoCpus: 1e9 }, second, 2)).toEqual({ cpusetCpus: '2', nanoCpus: 1e9 });
    expect(placeLimits({ cpusetCpus: '0-1' }, second, 2)).toEqual({ cpusetCpus: '2-3' });
    expect(placeLimits({ nanoCpus: 5e8 }, second, 2)).toEqual({ nanoCpus: 5e8, cpusetCpus: '2-3' });
    const limits = { nanoCpus: 1e9 };
    expect(placeLimits(limits, cutSlots([0, 1], 1)[0], 1)).toBe(limits);
  });

  test('a cell that does not fit: which cell, where it is written, what fits', () => {
    const plan = planOf({ workload: ['pbkdf2'], cpus: [1, 2] }, { include: [{ cpuset: '1' }] });
    const engines = [{ name: 'box', slots: cutSlots([0, 1], 2) }];
    const problems = checkCellsFit(plan, engines);
    expect(problems.map((problem) => problem.path.join('.'))).toEqual([
      'experiments.exp.include.0.cpuset',
      'experiments.exp.matrix.cpus.1',
    ]);
    expect(problems[0].message).toMatch(
      /cpuset "1" names CPU 1, outside a slot of engine box \(--slots 2: 1 CPU\(s\) each, 0 \| 1\); what fits: cpus up to 1, cpuset within 0/,
    );
    expect(problems[1].message).toMatch(/cpus 2 does not fit a slot of engine box/);
    expect(checkCellsFit(plan, [{ name: 'big', slots: cutSlots([0, 1, 2, 3], 2) }])).toEqual([]);
  });

  test('a cell pinned to one engine is checked against that engine only', () => {
    const plan = planOf({ workload: ['pbkdf2'], engine: ['small', 'big'], cpus: [4] });
    const problems = checkCellsFit(plan, [
      { name: 'small', slots: cutSlots([0, 1], 1) },
      { name: 'big', slots: cutSlots([0, 1, 2, 3], 1) },
    ]);
    expect(problems).toHaveLength(1);
    expect(problems[0].message).toMatch(/engine=small .*does not fit engine small \(2 CPU\(s\): 0-1\)/);
  });
});

describe('createLaneAssigner', () => {
  test("each cell's repetitions go to different engines first, then slots; every lane gets its share", () => {
    const plan = planOf({ workload: ['pbkdf2'], workers: [0, 1, 2, 3, 4, 5] }, { repetitions: 4 });
    const lanes = lanesOf(['a', 'b'], 2);
    const assign = createLaneAssigner(lanes, { seed: 1, experimentName: 'exp' });
    const placed = plan.runs.map((run) => ({ run, lane: assign(run) }));
    for (const cell of plan.cells) {
      const mine = placed.filter(({ run }) => run.cell === cell.cell).map(({ lane }) => lane);
      expect(new Set(mine).size).toBe(4);
      expect(new Set(mine.slice(0, 2).map((lane) => lane[0])).size).toBe(2);
    }
    const perLane = lanes.map((lane) => placed.filter((item) => item.lane === lane.id).length);
    expect(perLane).toEqual([6, 6, 6, 6]);
  });

  test('the same seed gives the same plan; an engine axis keeps a cell on its engine', () => {
    const plan = planOf({ workload: ['pbkdf2'], engine: ['a', 'b'], workers: [0, 1] }, { repetitions: 3 });
    const lanes = lanesOf(['a', 'b'], 2);
    const twice = [1, 2].map(() => {
      const assign = createLaneAssigner(lanes, { seed: 9, experimentName: 'exp' });
      return plan.runs.map((run) => assign(run));
    });
    expect(twice[0]).toEqual(twice[1]);
    plan.runs.forEach((run, i) => expect(twice[0][i].startsWith(`${run.values.engine}#`)).toBe(true));
  });
});

describe('dispatchRuns', () => {
  const runs = Array.from({ length: 8 }, (_, i) => ({ runKey: `r${i}`, values: {} }));

  test('at most one run per lane at a time, every run once, a free lane takes what another lane has not started', async () => {
    const lanes = lanesOf(['a'], 2);
    const busy = new Set();
    const done = [];
    let most = 0;
    await dispatchRuns({
      runs,
      lanes,
      preferredLane: () => 'a#0',
      work: async (run, lane) => {
        expect(busy.has(lane.id)).toBe(false);
        busy.add(lane.id);
        most = Math.max(most, busy.size);
        await new Promise((resolve) => setTimeout(resolve, 5));
        busy.delete(lane.id);
        done.push(run.runKey);
        return true;
      },
    });
    expect(most).toBe(2);
    expect(done.sort()).toEqual(runs.map((run) => run.runKey).sort());
  });

  test('an engine lost mid-run: its run goes to the others, no run twice, the engine named once', async () => {
    const lanes = lanesOf(['a', 'b']);
    const finished = [];
    const lostNames = [];
    let bCalls = 0;
    const outcome = await dispatchRuns({
      runs,
      lanes,
      preferredLane: (run) => (Number(run.runKey.slice(1)) % 2 ? 'b#0' : 'a#0'),
      onEngineLost: (engine) => lostNames.push(engine),
      work: async (run, lane) => {
        await new Promise((resolve) => setTimeout(resolve, 2));
        if (lane.engine === 'b' && ++bCalls === 2) throw backendLost('gone', { engine: 'b' });
        finished.push({ key: run.runKey, engine: lane.engine });
        return true;
      },
    });
    expect(lostNames).toEqual(['b']);
    expect([...outcome.lost.keys()]).toEqual(['b']);
    expect(outcome.notRun).toEqual([]);
    expect(finished.map((item) => item.key).sort()).toEqual(runs.map((run) => run.runKey).sort());
    expect(finished.filter((item) => item.engine === 'b')).toHaveLength(1);
  });

  test('runs pinned to a lost engine are returned as not run', async () => {
    const pinned = [
      { runKey: 'x', values: { engine: 'b' } },
      { runKey: 'y', values: { engine: 'a' } },
    ];
    const outcome = await dispatchRuns({
      runs: pinned,
      lanes: lanesOf(['a', 'b']),
      preferredLane: (run) => `${run.values.engine}#0`,
      work: async (run) => {
        if (run.runKey === 'x') throw backendLost('gone');
        return true;
      },
    });
    expect(outcome.notRun.map((run) => run.runKey)).toEqual(['x']);
  });

  test('false from a run hands out nothing more; an unexpected error is thrown once the others are done', async () => {
    const started = [];
    await dispatchRuns({
      runs,
      lanes: lanesOf(['a']),
      preferredLane: () => 'a#0',
      work: async (run) => started.push(run) && false,
    });
    expect(started).toHaveLength(1);
    await expect(
      dispatchRuns({
        runs,
        lanes: lanesOf(['a']),
        preferredLane: () => 'a#0',
        work: async () => {
          throw new Error('bug');
        },
      }),
    ).rejects.toThrow('bug');
  });
});

describe('runMatrix over lanes', () => {
  // Through the backend contract only: two fake backends, one of which goes away at its second run.
  test("a lost engine's run in flight gets no row and is run on the other; rows name where they ran", async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'matrix-lanes-'));
    const plan = planOf({ workload: ['pbkdf2'], workers: [0, 1, 2] }, { repetitions: 2 });
    let bRuns = 0;
    const lanes = createFakeLanes({
      a: createFakeExecutor(),
      b: createFakeExecutor(() => ({ lost: ++bRuns === 2 })),
    });
    const lost = [];
    const summary = await runMatrix({ plan, lanes, outDir, onEngineLost: (engine) => lost.push(engine) });
    expect(lost).toEqual(['b']);
    expect(summary).toMatchObject({ total: 6, done: 6, ok: 6, lost_engines: ['b'], not_run: 0 });
    const rows = parse(readFileSync(join(outDir, 'runs.csv'), 'utf8'), { columns: true });
    expect(rows.map((row) => `${row.cell}.${row.repetition}`).sort()).toEqual(
      plan.runs.map((run) => run.runKey).sort(),
    );
    expect(rows.filter((row) => row.engine === 'b')).toHaveLength(1);
    for (const row of rows) {
      expect(row.slot_cpuset).toBe('0-1');
      expect(summary.placements[`${row.cell}.${row.repetition}`]).toBe(`${row.engine}#0`);
    }
  });
});

describe('checkSameMachines', () => {
  const engine = (name, cpus, model) => ({
    name,
    facts: { cpus, cpu_ids: Array.from({ length: cpus }, (_, i) => i), cpu_model: model },
  });

  test('engines differing in CPU count or model are refused unless compared or allowed', () => {
    const mixed = [engine('laptop', 8, 'M2'), engine('server', 64, 'EPYC')];
    expect(() => checkSameMachines(mixed, { detail: 'count' })).toThrow(
      /differ in CPU count: laptop: 8 CPUs; server: 64 CPUs/,
    );
    expect(() => checkSameMachines(mixed, { detail: 'count', engineAxis: true })).not.toThrow();
    expect(() => checkSameMachines(mixed, { detail: 'model', allowMixed: true })).not.toThrow();
    expect(() => checkSameMachines([engine('a', 2, 'X'), engine('b', 2, 'Y')], { detail: 'model' })).toThrow(
      expect.objectContaining({
        code: 'ERR_PREFLIGHT',
        exitCode: 2,
        hint: expect.stringContaining('--allow-mixed-engines'),
      }),
    );
    expect(() => checkSameMachines([engine('a', 2, 'X'), engine('b', 2, 'X')], { detail: 'model' })).not.toThrow();
  });
});

describe('checkCellsFit and the http loader', () => {
  test('a loader CPU list outside the slot is refused like a cell cpuset', () => {
    const config = {
      file: 'x.yml',
      experiments: [
        {
          name: 'web',
          repetitions: 1,
          timeout: 10,
          memory_bytes: 2 ** 30,
          env: {},
          include: [],
          exclude: [],
          matrix: { workload: ['http'] },
          params: { http: { loader: { cpuset: '3' } } },
        },
      ],
    };
    const [plan] = planExperiments(config, { defaultNodeMajor: 24 });
    const [problem] = checkCellsFit(plan, [{ name: 'box', slots: cutSlots([0, 1, 2, 3], 2) }]);
    expect(problem.message).toMatch(/params\.http\.loader\.cpuset "3" names CPU 3, outside a slot of engine box/);
    expect(problem.path).toEqual(['experiments', 'web', 'params', 'http', 'loader', 'cpuset']);
  });
});
