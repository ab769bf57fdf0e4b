// How to read a claim's verdict (runner/verdicts/capacity-class.js), rule by rule, on real folders (copies of the
// published runs in test/fixtures/results/): the pbkdf2 waves (16 calls on 2 CPUs, where the model caps pool 1 → 4
// at 0.50 and the post's 0.25 needs 4 CPUs), and the five cases of issue 30 with the claims as
// published-experiments.yml writes them.
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../../runner/config/load-config.js';
import { readResults } from '../../../runner/results/read-results.js';
import { judgeResults } from '../../../runner/report/verdicts.js';
import { classifyClaimRow, classifyOverall } from '../../../runner/verdicts/capacity-class.js';
import { summarizeCells } from '../../../runner/report/summary.js';

const fixture = (name) => fileURLToPath(new URL(`../../fixtures/results/${name}`, import.meta.url));
const folder = readResults(fixture('pbkdf2-waves'));
const claim = (expect, compare = { uv_threadpool_size: [1, 4] }) => ({
  says: 'test',
  metric: null,
  compare,
  where: {},
  expect,
});
const rowOf = (verdicts) => verdicts.claims.find((row) => row.kind === 'claim');

// A claim of published-experiments.yml, judged on its committed folder: its overall row and its combinations.
const published = await loadConfig(fileURLToPath(new URL('../../../published-experiments.yml', import.meta.url)));
function judgePublished(experiment, says, change = (each) => each) {
  const found = published.experiments.find((each) => each.name === experiment);
  const chosen = found.claims.find((each) => each.says.startsWith(says));
  const rows = judgeResults(readResults(fixture(experiment)), { claims: [change(chosen)] }).claims;
  return {
    overall: rows.find((row) => row.kind === 'claim-overall'),
    rows: rows.filter((row) => row.kind === 'claim'),
  };
}
const at = (rows, where) => rows.find((row) => row.where === where);

describe('without conditions: what the model says', () => {
  test('a band the host cannot reach is "not reachable here", with the model value and the CPUs it needs', () => {
    const row = rowOf(judgeResults(folder, { claims: [claim({ ratio: 0.25, within: 0.2 })] }));
    expect(row.verdict).toBe('refuted');
    expect(row.class).toBe('not reachable here');
    expect(row.model_ratio).toBeCloseTo(0.5, 2);
    expect(row.class_note).toMatch(
      /this host caps it at 0\.50\d* \(measured 0\.5\d*\); the expected band needs cpus 2 → 4/,
    );
  });

  test('a band the host can reach, refuted, is "contradicted"; one the model puts out of reach on any host too', () => {
    const reachable = rowOf(judgeResults(folder, { claims: [claim({ ratio: 0.8, within: 0.1 })] }));
    expect(reachable.verdict).toBe('refuted');
    expect(reachable.class).toBe('contradicted');
    // The model (the ideal) allows 0.5: a band between 1 and it asks for less than the host can give.
    expect(reachable.class_note).toMatch(
      /^the model allows up to 0\.50\d* here, a bigger change than the expected band: this host could show it$/,
    );
    // Pool 1 → 4 can never make 16 calls slower than pool 1 on any host: above 1.2 is out of the model's reach.
    const never = rowOf(judgeResults(folder, { claims: [claim({ above: 1.2 })] }));
    expect(never.class).toBe('contradicted');
    expect(never.class_note).toMatch(/stays outside the expected band on hosts up to 32×/);
  });

  test('expect: model holds when the measurement agrees with the model within the tolerance; holds stays holds', () => {
    const agrees = rowOf(judgeResults(folder, { claims: [claim({ model: 0.1 })] }));
    expect(agrees.expect).toBe("the capacity model's ratio within ±10%");
    expect(agrees.verdict).toBe('holds');
    expect(agrees.class).toBe('holds');
    const tight = rowOf(judgeResults(folder, { claims: [claim({ ratio: 0.5, within: 0.2 })] }));
    expect(tight.class).toBe('holds');
  });
});

describe('the five cases of issue 30, as published-experiments.yml encodes them', () => {
  test("contradicted: 100 argon2 hashes on the post's own 1 core, 4 → 8 threads, not nearly twice the time", () => {
    const { overall, rows } = judgePublished('argon2-pool-100', '100 hashes on 1 core');
    expect(rows.map((row) => [row.verdict, row.class])).toEqual([['refuted', 'contradicted']]);
    expect(rows[0].class_note).toMatch(/^these cells have 1 CPU, the post's had 1: the post's own condition is met/);
    expect(overall.class).toBe('contradicted');
  });

  test('holds: 4 argon2 hashes "halved" on 2 CPUs against 1 (0.5 ± 10%); the literal "below 0.5" would be refuted', () => {
    const { overall } = judgePublished('argon2-pool-4', '4 hashes with the default pool of 4');
    expect([overall.verdict, overall.class]).toEqual(['holds', 'holds']);
    const literal = judgePublished('argon2-pool-4', '4 hashes with the default pool of 4', (each) => ({
      ...each,
      expect: { below: 0.5 },
    }));
    expect(literal.overall.verdict).toBe('refuted');
  });

  test("outside the post's conditions: the template offload, refuted on 1 and 2 CPUs where the post's ran on 16", () => {
    const { overall, rows } = judgePublished('template-offload-80', 'Offloading the rendering');
    expect(rows.map((row) => [row.where, row.verdict, row.class])).toEqual([
      ['cpuset=0', 'refuted', "outside the post's conditions"],
      ['cpuset=0-1', 'refuted', "outside the post's conditions"],
    ]);
    expect(at(rows, 'cpuset=0-1').class_note).toMatch(/^these cells have 2 CPUs, the post's had 16/);
    expect(overall.class).toBe("outside the post's conditions");
    // Without the post's condition the model alone would decide, and on 2 CPUs it leaves the band within reach.
    const bare = judgePublished('template-offload-80', 'Offloading the rendering', ({ conditions, ...rest }) => rest);
    expect(at(bare.rows, 'cpuset=0-1').class).toBe('contradicted');
  });

  test('not comparable: an event-loop metric that reads less under load than idle, whatever its verdict', () => {
    const { overall, rows } = judgePublished('template-offload-80', 'Event-loop delay');
    expect(rows.map((row) => row.class)).toEqual(['not comparable', 'not comparable']);
    expect(rows.map((row) => row.verdict)).toEqual(['refuted', 'inconclusive']);
    expect(overall.class).toBe('not comparable');
    expect(overall.class_note).toMatch(/not the post's setImmediate timed once a second/);
  });

  test("inconclusive — the host predicts no difference: 4 → 8 (or 32) threads on the post's own 2 cores", () => {
    for (const says of ['100 hashes on 2 cores: 8 pool threads', '100 hashes on 2 cores: 32 pool threads']) {
      const { overall, rows } = judgePublished('argon2-pool-100', says);
      expect(rows.map((row) => [row.verdict, row.class])).toEqual([
        ['inconclusive', 'inconclusive — the host predicts no difference'],
      ]);
      expect(Math.abs(rows[0].model_ratio - 1)).toBeLessThan(0.02);
      expect(overall.class).toBe('inconclusive — the host predicts no difference');
    }
    // Its cells have the post's 2 CPUs, so even without the edge rule it is never "not reachable here".
    const { rows } = judgePublished('argon2-pool-100', '100 hashes on 2 cores: 8 pool threads', (each) => ({
      ...each,
      expect: { below: 0.9 },
    }));
    expect(rows[0].class).toBe('inconclusive');
  });

  test("a claim's class is its own: the sum post's worker holds on Node 20, Node 24's reversal is a version effect", () => {
    const { overall, rows } = judgePublished('sum-1e9-post', 'N = 10^9: one worker thread');
    expect(rows.map((row) => [row.where, row.verdict, row.class])).toEqual([
      ['cluster=0 node=20', 'holds', 'holds'],
      ['cluster=0 node=24', 'refuted', "outside the post's conditions"],
    ]);
    expect(at(rows, 'cluster=0 node=24').class_note).toMatch(/^node 24 \(the post's: 20\)/);
    expect([overall.verdict, overall.class]).toEqual(['holds', 'holds']);
    expect(overall.outside).toEqual(["cluster=0 node=24: node 24 (the post's: 20)"]);
    expect(overall.words).toMatch(/^HOLDS: .*outside the post's conditions: cluster=0 node=24/);
  });

  test("one metric a claim, the sentence's: cluster-size is read on ab's time per request, the others beside it unjudged", () => {
    const { overall, rows } = judgePublished('cluster-size', '6 requests at once');
    expect(rows.map((row) => [row.metric, row.verdict, row.class])).toEqual([
      ['burst_p50_ms', 'refuted', 'contradicted'],
    ]);
    expect(overall.class).toBe('contradicted');
    expect(rows[0].beside.map((each) => each.metric)).toEqual(['burst_first_p50_ms', 'requests_per_sec']);
    // The first answer alone would have held: it is shown beside the claim, never counted for it.
    expect(rows[0].beside[0].comparison.ci95_low).toBeGreaterThan(1);
    for (const each of rows[0].beside) expect(each).not.toHaveProperty('verdict');
  });

  test('refuted — no model: a refutation where no capacity model of the metric says what the host allows', () => {
    const { overall, rows } = judgePublished(
      'sum-1e9-post',
      'N = 10^9: one worker thread',
      ({ conditions, ...rest }) => rest,
    );
    expect(at(rows, 'cluster=0 node=24')).toMatchObject({ verdict: 'refuted', class: 'refuted — no model' });
    expect([overall.verdict, overall.class]).toEqual(['refuted', 'refuted — no model']);
  });
});

test('a claim overall: combinations outside the conditions count only when none is inside; then by precedence', () => {
  const row = (name, inside = true) => ({ class: name, within_conditions: inside });
  expect(classifyOverall([row('holds'), row('contradicted')])).toBe('contradicted');
  expect(classifyOverall([row('holds'), row("outside the post's conditions", false)])).toBe('holds');
  expect(classifyOverall([row("outside the post's conditions", false)])).toBe("outside the post's conditions");
  expect(classifyOverall([row('holds'), row('holds')])).toBe('holds');
  expect(classifyOverall([row('inconclusive'), row('not reachable here')])).toBe('not reachable here');
  expect(classifyOverall([row('holds'), row('inconclusive — the host predicts no difference')])).toBe(
    'inconclusive — the host predicts no difference',
  );
  expect(classifyOverall([row('inconclusive'), row('inconclusive — the host predicts no difference')])).toBe(
    'inconclusive',
  );
  expect(classifyOverall([row('refuted — no model'), row('holds')])).toBe('refuted — no model');
  expect(classifyOverall([row('not comparable'), row('contradicted')])).toBe('not comparable');
});

// One rule for both directions (issue 40): where a comparison stands is read from the claim and the cells before the
// verdict, so flipping a result from hold to refute on the same cells moves the class only where the verdict is read.
describe('one rule for holds and refutations', () => {
  const flip = (experiment, says, change = (each) => each) => {
    const { rows } = judgePublished(experiment, says, change);
    const found = published.experiments.find((each) => each.name === experiment);
    const claimed = change(found.claims.find((each) => each.says.startsWith(says)));
    const cells = summarizeCells(readResults(fixture(experiment))).cells;
    const cellOf = (name) => cells.find((cell) => cell.cell === name);
    return ['holds', 'refuted', 'inconclusive'].map((verdict) => {
      const row = { ...rows[0], verdict };
      const [a, b] = rows[0].cells.map(cellOf);
      const pair = { a, b, expect: claimed.expect, conditions: claimed.conditions };
      return { verdict, ...classifyClaimRow(row, { ...pair, notComparable: claimed.not_comparable }) };
    });
  };

  test("outside the post's conditions (Node 24 against the post's 16.5): a hold, a refutation and an open result alike", () => {
    const classes = flip('idle-memory', 'One idle worker thread');
    expect(classes.map((each) => each.class)).toEqual(Array(3).fill("outside the post's conditions"));
    expect(new Set(classes.map((each) => each.class_note)).size).toBe(1);
    expect(classes[0].class_note).toMatch(/^node 24 \(the post's: 16\)/);
    expect(classes.every((each) => each.within_conditions === false)).toBe(true);
  });

  test("outside the post's conditions by its CPUs (1 here, 16 in the post): a hold would count no more than the refutation", () => {
    const classes = flip('template-offload-80', 'Offloading the rendering');
    expect(classes.map((each) => each.class)).toEqual(Array(3).fill("outside the post's conditions"));
    expect(classes[0].conditions_unmet).toEqual(["these cells have 1 CPU, the post's had 16"]);
  });

  test("inside the conditions (the post's own 1 core): holds ↔ contradicted, the verdict read both ways", () => {
    const classes = flip('argon2-pool-100', '100 hashes on 1 core');
    expect(classes.map((each) => [each.verdict, each.class])).toEqual([
      ['holds', 'holds'],
      ['refuted', 'contradicted'],
      ['inconclusive', 'inconclusive'],
    ]);
    expect(classes.every((each) => each.within_conditions === true)).toBe(true);
  });

  test("out of this host's reach by the model (no CPUs named): a hold is not counted either", () => {
    const classes = flip('pbkdf2-waves', '16 calls', ({ conditions, ...rest }) => rest);
    expect(classes.map((each) => each.class)).toEqual(Array(3).fill('not reachable here'));
  });

  test('a synthetic result moved from hold to refute on the same cells: the class moves symmetrically', () => {
    const judge = (scale, conditions) => {
      const folder = readResults(fixture('idle-memory'));
      for (const run of folder.runs) if (run.workers === 1) run.rss_mb *= scale;
      const claimed = {
        says: 'one idle thread',
        metric: 'rss_mb',
        compare: { workers: [0, 1] },
        where: { cluster: 0 },
        expect: { ratio: 1.21, within: 0.1 },
        ...(conditions ? { conditions } : {}),
      };
      const [overall, row] = judgeResults(folder, { claims: [claimed] }).claims;
      return [row.verdict, row.class, overall.class];
    };
    // The post's Node.js 16 against these Node 24 cells: outside, whether the measurement holds or refutes.
    expect(judge(1, { node: [16] })).toEqual([
      'holds',
      "outside the post's conditions",
      "outside the post's conditions",
    ]);
    expect(judge(2, { node: [16] })).toEqual([
      'refuted',
      "outside the post's conditions",
      "outside the post's conditions",
    ]);
    // The same cells inside the conditions: the hold counts for the claim and the refutation against it.
    expect(judge(1, { node: [24] })).toEqual(['holds', 'holds', 'holds']);
    expect(judge(2, { node: [24] })).toEqual(['refuted', 'contradicted', 'contradicted']);
  });
});
