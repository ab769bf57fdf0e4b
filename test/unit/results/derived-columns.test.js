// Columns computed when a folder is read: cpu_per_task_dev_pct against the whole cell's median, whatever order the
// runs went in, for workloads of fixed work per task only.
import { EventEmitter } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planExperiments } from '../../../runner/plan/plan-runs.js';
import { readResults } from '../../../runner/results/read-results.js';
import { prepareJobs, runExperiments } from '../../../runner/run/run-experiments.js';
import { createFakeExecutor, FAKE_CONTEXT as CONTEXT, fakeResult } from '../../../runner/backend/fake.js';
import { createLane } from '../../../runner/backend/contract.js';

test("cpu_per_task_dev_pct: each run's CPU time against its cell's median of ok runs, in percent", async () => {
  const config = {
    file: 'x.yml',
    experiments: [
      {
        name: 'cpu',
        repetitions: 4,
        warmup: 1,
        timeout: 10,
        memory_bytes: 2 ** 30,
        env: {},
        include: [],
        exclude: [],
        matrix: { workload: ['pbkdf2', 'idle'] },
        params: { pbkdf2: { tasks: 2 }, idle: { tasks: 2 } },
      },
    ],
  };
  const [plan] = planExperiments(config, { defaultNodeMajor: 24, seed: 7 });
  // pbkdf2's measured runs: 200, 210, 190, 250 ms of CPU (median 205), one failed and a warm-up at 400 (not in the
  // median).
  const cpu = { 1: 200, 2: 210, 3: 190, 4: 250 };
  const executor = createFakeExecutor((run) => {
    if (run.warmup) return { result: fakeResult(run, { cpu_total_ms: 400 }) };
    if (run.workload === 'idle' || run.repetition !== 3)
      return { result: fakeResult(run, { cpu_total_ms: cpu[run.repetition] }) };
    return { result: fakeResult(run, { cpu_total_ms: cpu[run.repetition] }), exitCode: 1 };
  });
  const out = mkdtempSync(join(tmpdir(), 'derived-'));
  await runExperiments({
    jobs: prepareJobs({ plans: [plan], out, resultsRoot: out }),
    lanes: [createLane(executor)],
    context: CONTEXT,
    events: new EventEmitter(),
  });
  const { runs, columns } = readResults(out);
  expect(columns).not.toContain('cpu_per_task_dev_pct');
  const pbkdf2 = runs
    .filter((row) => row.workload === 'pbkdf2')
    .sort((a, b) => Number(a.warmup) - Number(b.warmup) || a.repetition - b.repetition);
  // Ok measured runs 200, 210, 250: median 210.
  expect(pbkdf2.map((row) => [row.warmup, row.repetition, row.status, row.cpu_per_task_dev_pct])).toEqual([
    [false, 1, 'ok', -4.762],
    [false, 2, 'ok', 0],
    [false, 3, 'failed', undefined],
    [false, 4, 'ok', 19.048],
    [true, 1, 'ok', 90.476],
  ]);
  expect(runs.filter((row) => row.workload === 'idle').every((row) => row.cpu_per_task_dev_pct === undefined)).toBe(
    true,
  );
});
