import { buildVerdicts, VERDICT_COLUMNS } from '../../../runner/report/verdicts.js';
import { normalizeClaim } from '../../../runner/config/check-claims.js';
import { createRandom } from '../../../runner/plan/run-order.js';

// Samples with a known truth: log-normal around `center` with coefficient of variation `cv`, from the
// runner's seeded generator, so every run of this file sees the same numbers.
function logNormal(random, center, cv, n) {
  return Array.from({ length: n }, () => {
    const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    return center * Math.exp(cv * normal);
  });
}

let cellNumber = 0;
function cell(values, wallMs, column = 'wall_ms') {
  cellNumber += 1;
  return {
    cell: `c${cellNumber}`,
    values,
    workload: values.workload,
    runs: wallMs.map((value, i) => ({ repetition: i + 1, [column]: value })),
  };
}

const AXES = ['workload', 'cpus', 'uv_threadpool_size'];

describe('claims on samples with a known truth', () => {
  const random = createRandom(42);
  // pool 1 → 4 halves the time at both CPU limits; pool 4 → 8 changes nothing; cv 2%, 6 runs each.
  const cells = [1, 2].flatMap((cpus) =>
    [
      [1, 1000],
      [4, 500],
      [8, 500],
    ].map(([pool, center]) =>
      cell(
        { workload: 'pbkdf2', cpus, uv_threadpool_size: pool },
        logNormal(random, center * (cpus === 1 ? 2 : 1), 0.02, 6),
      ),
    ),
  );
  const claim = (compare, expect, where) => normalizeClaim({ says: JSON.stringify(expect), compare, expect, where });

  test('a clear halving holds as {ratio: 0.5, within: 0.1} and {below: 0.8}, is refuted as {ratio: 0.8, within: 0.05}', () => {
    const { claims, exitCode } = buildVerdicts(cells, AXES, [
      claim({ uv_threadpool_size: [1, 4] }, { ratio: 0.5, within: 0.1 }),
      claim({ uv_threadpool_size: [1, 4] }, { below: 0.8 }),
      claim({ uv_threadpool_size: [1, 4] }, { ratio: 0.8, within: 0.05 }),
      claim({ uv_threadpool_size: [1, 4] }, { above: 0.8 }),
    ]);
    const overall = claims.filter((row) => row.kind === 'claim-overall').map((row) => row.verdict);
    expect(overall).toEqual(['holds', 'holds', 'refuted', 'refuted']);
    // Without `where`, each combination of the other axes (cpus 1 and 2) is checked, as one Holm family.
    expect(
      claims
        .filter((row) => row.kind === 'claim' && row.claim === 1)
        .map((row) => [row.where, row.family, row.verdict]),
    ).toEqual([
      ['cpus=1', 2, 'holds'],
      ['cpus=2', 2, 'holds'],
    ]);
    expect(exitCode).toBe(1);
  });

  test('a clear equivalence holds as {same: 0.05}; exit 0 when every claim holds', () => {
    const { claims, exitCode } = buildVerdicts(cells, AXES, [claim({ uv_threadpool_size: [4, 8] }, { same: 0.05 })]);
    expect(claims.map((row) => row.verdict)).toEqual(['holds', 'holds', 'holds']);
    expect(exitCode).toBe(0);
  });

  test('noise too wide for the runs: inconclusive (never "same"), with the runs that would probably settle it; exit 3', () => {
    // The truth is "the same" (both around 500), but a cv of 20% with 3 runs cannot show it.
    const noisy = [
      [4, [400, 600, 500]],
      [8, [420, 590, 505]],
    ].map(([pool, values]) => cell({ workload: 'pbkdf2', cpus: 2, uv_threadpool_size: pool }, values));
    const { claims, exitCode } = buildVerdicts(noisy, AXES, [claim({ uv_threadpool_size: [4, 8] }, { same: 0.05 })]);
    const [overall, only] = claims;
    expect(only.verdict).toBe('inconclusive');
    expect(only.runs_needed).toBeGreaterThan(3);
    expect(overall).toMatchObject({ verdict: 'inconclusive', runs_needed: only.runs_needed });
    expect(only.words).toMatch(/more runs per cell .* would probably settle it/);
    expect(exitCode).toBe(3);
  });

  test('`where` keeps only the matching combinations', () => {
    const { claims } = buildVerdicts(cells, AXES, [claim({ uv_threadpool_size: [1, 4] }, { below: 0.8 }, { cpus: 2 })]);
    expect(claims.map((row) => [row.kind, row.where, row.family])).toEqual([
      ['claim-overall', 'cpus=2', 1],
      ['claim', 'cpus=2', 1],
    ]);
  });

  test('a refuted combination makes the claim refuted; a missing side leaves no combination and an inconclusive claim', () => {
    const mixed = [
      ...cells,
      cell({ workload: 'pbkdf2', cpus: 4, uv_threadpool_size: 1 }, [100, 101, 99]),
      cell({ workload: 'pbkdf2', cpus: 4, uv_threadpool_size: 4 }, [100, 100.5, 99.5]),
    ];
    const { claims } = buildVerdicts(mixed, AXES, [
      claim({ uv_threadpool_size: [1, 4] }, { below: 0.8 }),
      claim({ uv_threadpool_size: [1, 4] }, { below: 0.8 }, { cpus: 8 }),
    ]);
    expect(claims.filter((row) => row.claim === 1).map((row) => row.verdict)).toEqual([
      'refuted',
      'holds',
      'holds',
      'refuted',
    ]);
    expect(claims.filter((row) => row.claim === 2)).toEqual([
      expect.objectContaining({ kind: 'claim-overall', verdict: 'inconclusive', family: 0 }),
    ]);
  });

  test("the metric defaults to the workload's first primary metric; any numeric column can be named", () => {
    const http = [1, 2].map((cpus) =>
      cell({ workload: 'http', cpus }, [1000 * cpus, 1010 * cpus, 990 * cpus], 'requests_per_sec'),
    );
    for (const row of http)
      row.runs.forEach((run) => {
        run.cpu_total_ms = 5000;
      });
    const { claims } = buildVerdicts(http, AXES, [
      claim({ cpus: [1, 2] }, { ratio: 2, within: 0.1 }),
      normalizeClaim({
        says: 'same CPU time',
        metric: 'cpu_total_ms',
        compare: { cpus: [1, 2] },
        expect: { same: 0.01 },
      }),
    ]);
    expect(claims.map((row) => [row.kind, row.metric, row.verdict])).toEqual([
      ['claim-overall', 'requests_per_sec', 'holds'],
      ['claim', 'requests_per_sec', 'holds'],
      ['claim-overall', 'cpu_total_ms', 'holds'],
      ['claim', 'cpu_total_ms', 'holds'],
    ]);
  });
});

describe('automatic steps', () => {
  const random = createRandom(7);
  const cells = [
    cell({ workload: 'pbkdf2', cpus: 2, uv_threadpool_size: 1 }, logNormal(random, 1000, 0.02, 8)),
    cell({ workload: 'pbkdf2', cpus: 2, uv_threadpool_size: 4 }, logNormal(random, 500, 0.02, 8)),
    cell({ workload: 'pbkdf2', cpus: 2, uv_threadpool_size: 8 }, logNormal(random, 500, 0.005, 8)),
    cell({ workload: 'pbkdf2', cpus: 2, uv_threadpool_size: 16 }, logNormal(random, 500, 0.3, 3)),
    cell({ workload: 'argon2', cpus: 2, uv_threadpool_size: 1 }, logNormal(random, 3000, 0.02, 8)),
    cell({ workload: 'argon2', cpus: 2, uv_threadpool_size: 4 }, logNormal(random, 3000, 0.02, 8)),
  ];
  const { steps, leaders, csvRows } = buildVerdicts(cells, AXES, []);

  test('each step between neighbouring values, workloads never compared with each other', () => {
    expect(steps.map((row) => [row.axis, row.a, row.b, row.where])).toEqual([
      ['uv_threadpool_size', 1, 4, 'workload=pbkdf2'],
      ['uv_threadpool_size', 1, 4, 'workload=argon2'],
      ['uv_threadpool_size', 4, 8, 'workload=pbkdf2'],
      ['uv_threadpool_size', 8, 16, 'workload=pbkdf2'],
    ]);
  });

  test('faster only when the interval excludes 1, no-change only inside ±5%, else inconclusive', () => {
    expect(steps.map((row) => row.verdict)).toEqual(['faster', 'no-change', 'no-change', 'inconclusive']);
    expect(steps[0].words).toMatch(
      /^uv_threadpool_size 1 → 4 at workload=pbkdf2: wall_ms −5\d% \[−5\d%, −4\d%\] \(n 8\/8\), faster$/,
    );
    expect(steps[2].words).toMatch(/about the same, no difference beyond ±\d%/);
    expect(steps[3].words).toMatch(/not distinguishable, .*more runs per cell/);
  });

  test('which axis moves each metric most', () => {
    expect(leaders.map((leader) => [leader.workload, leader.axis])).toEqual([
      ['pbkdf2', 'uv_threadpool_size'],
      ['argon2', null],
    ]);
    expect(leaders[1].words).toBe('argon2 wall_ms: no step changes it beyond the noise (1 judged)');
  });

  test('verdicts.csv rows carry every column', () => {
    expect(VERDICT_COLUMNS.slice(0, 18)).toEqual([
      'kind',
      'claim',
      'says',
      'metric',
      'axis',
      'a',
      'b',
      'where',
      'n_a',
      'n_b',
      'median_a',
      'median_b',
      'ratio',
      'ratio_ci95_low',
      'ratio_ci95_high',
      'expect',
      'verdict',
      'runs_needed',
    ]);
    expect(Object.keys(csvRows[0])).toEqual(VERDICT_COLUMNS);
    expect(csvRows[0]).toMatchObject({
      kind: 'step',
      metric: 'wall_ms',
      axis: 'uv_threadpool_size',
      a: 1,
      b: 4,
      n_a: 8,
      n_b: 8,
      verdict: 'faster',
      runs_needed: null,
    });
    expect(csvRows[3].runs_needed).toBeGreaterThan(3);
  });
});
