import { createRandom } from '../../../runner/plan/run-order.js';
import { compareSamples, METHOD_NAMES } from '../../../runner/stats/compare-samples.js';
import { judgeFamily } from '../../../runner/verdicts/judge.js';
import { fitNoiseModel, solveSharedRate } from '../../../scripts/lib/noise-model.js';
import { measureRealPairs } from '../../../scripts/lib/real-pairs.js';
import { buildScenario, CLAIMS, decide, drawPair, trueLabels } from '../../../scripts/lib/stats-simulation.js';

// A folder of two pbkdf2 cells over 10 rounds: steady runs ±1%, and rounds 3 and 7 slow (+50%) for both cells.
function makeFolder() {
  const steady = [0, 0.01, -0.01, 0.005, -0.005, 0.002, -0.002, 0.008, -0.008, 0.003];
  const runs = [];
  for (const [cell, base] of [
    ['c1', 1000],
    ['c2', 2000],
  ]) {
    for (let round = 1; round <= 10; round++) {
      const slow = round === 3 || round === 7 ? 1.5 : 1;
      runs.push({
        cell,
        workload: 'pbkdf2',
        status: 'ok',
        warmup: false,
        repetition: round,
        wall_ms: base * slow * Math.exp(steady[(round + (cell === 'c2' ? 4 : 0)) % 10]),
      });
    }
  }
  return { dir: 'synthetic', runs };
}

describe('fitNoiseModel', () => {
  test('finds the core spread, the spikes and that they come in shared rounds', () => {
    const model = fitNoiseModel([makeFolder()]);
    expect(model.runs).toBe(20);
    expect(model.spikeRate).toBeCloseTo(0.2, 12);
    expect(model.spikes.map((r) => Math.exp(r))).toEqual(Array(4).fill(expect.closeTo(1.5, 1)));
    expect(model.coreSd).toBeLessThan(0.02);
    // Both slowed rounds hit both cells: every spike is shared.
    expect(model.shared).toMatchObject({ pairs: 10, both: 2, either: 2 });
    expect(model.shared.sharedRate).toBeCloseTo(0.2, 6);
  });

  test('leaves out cells with fewer than 5 runs and anything that is not a wall_ms workload', () => {
    const folder = makeFolder();
    folder.runs.push(
      ...[1, 2, 3].map((repetition) => ({
        cell: 'short',
        workload: 'pbkdf2',
        status: 'ok',
        repetition,
        wall_ms: 100 + repetition,
      })),
    );
    folder.runs.push(
      ...[1, 2, 3, 4, 5].map((repetition) => ({
        cell: 'web',
        workload: 'http',
        status: 'ok',
        repetition,
        requests_per_sec: 100,
        wall_ms: 1,
      })),
    );
    const model = fitNoiseModel([folder]);
    expect(model.runs).toBe(20);
    expect(model.skipped).toBe(1);
  });

  test('solveSharedRate: no excess of joint spikes → 0; all joint → the spike rate', () => {
    expect(solveSharedRate(0.1, 0.01)).toBeCloseTo(0, 10);
    expect(solveSharedRate(0.1, 0.1)).toBe(0.1);
    const ps = solveSharedRate(0.1, 0.05);
    const pi = 1 - 0.9 / (1 - ps);
    expect(ps + (1 - ps) * pi * pi).toBeCloseTo(0.05, 10);
  });
});

describe('the simulation', () => {
  const model = fitNoiseModel([makeFolder()]);

  test.each(
    METHOD_NAMES.flatMap((method) => [
      [method, false],
      [method, true],
    ]),
  )(
    'decide gives the verdict judgeFamily gives a family of one (%s, paired %s), at every true ratio',
    (method, paired) => {
      const random = createRandom(7);
      const scenario = buildScenario(model, { name: 'fitted', sharedRate: 0, roundSd: 0 });
      for (let trial = 0; trial < 10; trial++) {
        const { a, b } = drawPair(model, scenario, 6, random);
        const shifted = compareSamples(a, b, { method, paired });
        for (const ratio of [0.5, 0.9, 0.97, 1, 1.05]) {
          const direct = compareSamples(
            a,
            b.map((value) => value * ratio),
            { method, paired },
          );
          for (const claim of CLAIMS) {
            expect(decide(shifted, claim.regions, Math.log(ratio))).toBe(
              judgeFamily([direct], claim.regions)[0].verdict,
            );
          }
        }
      }
    },
  );

  test('trueLabels: a label is true where its open region holds the ratio; an edge counts for nothing', () => {
    const [ratio, , same10, above, step] = CLAIMS;
    expect([...trueLabels(ratio, 0.5)]).toEqual(['holds']);
    expect([...trueLabels(ratio, 0.9)]).toEqual(['refuted']);
    expect(trueLabels(same10, 0.9)).toBeNull();
    expect(trueLabels(above, 0.9)).toBeNull();
    expect([...trueLabels(step, 1)]).toEqual(['no-change']);
    expect([...trueLabels(step, 1.05)]).toEqual(['slower']);
  });

  test('drawPair is seeded, and the disturbed-run rule replaces slowed runs (at most `retries` a cell)', () => {
    const scenario = buildScenario(model, { name: 'fitted', sharedRate: model.spikeRate, roundSd: 0 });
    expect(drawPair(model, scenario, 10, createRandom(3))).toEqual(drawPair(model, scenario, 10, createRandom(3)));
    const slowRuns = (pairs) => pairs.flatMap(({ a, b }) => [...a, ...b]).filter((value) => value > 1300).length;
    const draw = (options) =>
      Array.from({ length: 200 }, (_, i) => drawPair(model, scenario, 10, createRandom(i), options));
    const without = slowRuns(draw({ detect: 0 }));
    const flagged = slowRuns(draw({ detect: 1, retries: 100 }));
    expect(without).toBeGreaterThan(600);
    expect(flagged).toBe(0);
    // With one retry a cell, a cell's second slowed run stays.
    expect(slowRuns(draw({ detect: 1, retries: 1 }))).toBeGreaterThan(0);
  });
});

describe('measureRealPairs', () => {
  test('every two cells of a folder, paired by repetition: the shared slow rounds cancel when paired', () => {
    const { pairs, widths } = measureRealPairs(
      [makeFolder()],
      [
        { method: 'welch', paired: false },
        { method: 'welch', paired: true },
        { method: 'hodges-lehmann', paired: true },
      ],
    );
    expect(pairs).toBe(1);
    const [unpaired, paired, rank] = widths;
    // Rounds 3 and 7 are +50% on both cells: unpaired they widen the interval, paired they cancel.
    expect(paired.width).toBeLessThan(unpaired.width / 3);
    expect(rank).toMatchObject({ intervals: 1 });
  });
});
