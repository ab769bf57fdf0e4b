// The sum workload on the host (images/workload/run.js, as the container runs it) and its pure parts.
import { execa } from 'execa';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import * as sumModule from '../../../../images/workload/workloads/sum.js';
import { choosePostShape, measure, runTask, sliceOf, sumRange } from '../../../../images/workload/workloads/sum.js';

const SUM_JS = new URL('../../../../images/workload/workloads/sum.js', import.meta.url).href;

const RUN_JS = fileURLToPath(new URL('../../../../images/workload/run.js', import.meta.url));

async function runOk(spec) {
  const run = await execa(process.execPath, [RUN_JS], {
    env: { LAB_SPEC: JSON.stringify(spec) },
    reject: false,
    timeout: 60_000,
  });
  if (run.exitCode !== 0) throw new Error(`run.js exited ${run.exitCode}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

describe('sum workload', () => {
  test('slices partition 1..n, also when tasks does not divide n', () => {
    for (const [n, tasks] of [
      [10, 1],
      [10, 3],
      [7, 7],
      [1_000_000_007, 4],
    ]) {
      const slices = Array.from({ length: tasks }, (_, index) => sliceOf({ n, tasks }, index));
      expect(slices[0].first).toBe(1);
      expect(slices.at(-1).last).toBe(n);
      for (let i = 1; i < tasks; i += 1) expect(slices[i].first).toBe(slices[i - 1].last + 1);
    }
  });

  test('sums exactly past 2^53, where a plain double loop would round', () => {
    // 1 + … + 10^8 = 5000000050000000 fits; a slice high up makes partial sums that would not.
    expect(sumRange(1, 100_000_000)).toBe(5_000_000_050_000_000n);
    const first = 2 ** 40;
    const last = first + 20_000;
    const expected = ((BigInt(first) + BigInt(last)) * BigInt(last - first + 1)) / 2n;
    expect(sumRange(first, last)).toBe(expected);
    expect(expected > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
    expect(() => runTask({ n: 10 ** 6, tasks: 3 }, 2)).not.toThrow();
  });

  test('the plain loops (local and closure bounds) give the double sum and pass the check; a wrong one fails', () => {
    const { sumLocal, sumClosure } = sumModule;
    expect(sumLocal(1, 1_000_000)).toBe(500_000_500_000);
    expect(sumClosure(1, 1_000_000)).toBe(500_000_500_000);
    for (const loop of ['blocks', 'local', 'closure', 'closure-main'])
      expect(() => runTask({ n: 10 ** 6, tasks: 3, loop }, 2)).not.toThrow();
    // Past 2^53 the double sum rounds; the check allows that rounding and no more.
    expect(() => runTask({ n: 2 * 10 ** 8, tasks: 1, loop: 'local' }, 0)).not.toThrow();
  });

  test("closure-main is the post's pair: the closure shape on the primary's main thread, the local shape in a worker thread or a cluster process", async () => {
    expect(choosePostShape()).toBe('closure');
    expect(choosePostShape({ primary: false })).toBe('local');
    const worker = new Worker(
      `import(${JSON.stringify(SUM_JS)}).then((m) => require('node:worker_threads').parentPort.postMessage(m.choosePostShape()))`,
      { eval: true },
    );
    const [shape] = await Promise.all([
      new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject)),
      new Promise((resolve) => worker.once('exit', resolve)),
    ]);
    expect(shape).toBe('local');
  });

  test('spawn_and_sum_ms is the span the post timed: from t0 where a thread or process was spawned, the slices alone where none was', () => {
    const t0 = 1000;
    expect(
      measure({
        t0,
        records: [
          { process: 0, thread: 0, start: 1003, end: 1020 },
          { process: 0, thread: 0, start: 1020, end: 1040 },
        ],
      }),
    ).toEqual({ spawn_and_sum_ms: 37 });
    expect(
      measure({
        t0,
        records: [
          { process: 0, thread: 1, start: 1090, end: 1100 },
          { process: 0, thread: 1, start: 1100, end: 1112.5 },
        ],
      }),
    ).toEqual({ spawn_and_sum_ms: 112.5 });
    expect(
      measure({
        t0,
        records: [
          { process: 1, thread: 0, start: 1100, end: 1130 },
          { process: 2, thread: 0, start: 1105, end: 1120 },
        ],
      }),
    ).toEqual({ spawn_and_sum_ms: 130 });
    expect(measure({ records: [] })).toEqual({ spawn_and_sum_ms: null });
  });

  test.each([
    [
      'the main thread',
      {},
      [
        [0, 0],
        [0, 0],
        [0, 0],
        [0, 0],
      ],
    ],
    [
      'one worker thread',
      { workers: 1 },
      [
        [0, 1],
        [0, 1],
        [0, 1],
        [0, 1],
      ],
    ],
    [
      'two cluster processes',
      { cluster: 2 },
      [
        [1, 0],
        [2, 0],
        [1, 0],
        [2, 0],
      ],
    ],
  ])('runs its slices on %s, one after another on each thread, no libuv pool', async (_, spread, places) => {
    const result = await runOk({ workload: 'sum', params: { n: 2_000_000, tasks: 4 }, ...spread });
    expect(result.workload).toBe('sum');
    expect(result.tasks.map(({ process, thread }) => [process, thread])).toEqual(places);
    const ms = (field) => result[field];
    expect(result.metrics.spawn_and_sum_ms).toBeCloseTo(
      spread.workers || spread.cluster ? ms('setup_ms') + ms('wall_ms') : ms('wall_ms'),
      1,
    );
    if (!spread.cluster) {
      const ends = result.tasks.map((task) => task.end_ms);
      for (let i = 1; i < 4; i += 1) expect(result.tasks[i].start_ms).toBeGreaterThanOrEqual(ends[i - 1]);
    }
  });

  test('more slices than numbers is refused as a bad spec', async () => {
    const run = await execa(process.execPath, [RUN_JS], {
      env: { LAB_SPEC: JSON.stringify({ workload: 'sum', params: { n: 3, tasks: 4 } }) },
      reject: false,
    });
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^workload failed: LAB_SPEC\.params\.tasks: expected at most n \(3\) slices, found 4/);
  });
});
