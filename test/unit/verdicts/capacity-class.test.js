// What the host can show, beside a claim's verdict (runner/verdicts/capacity-class.js), on the committed pbkdf2
// waves folder: 16 calls on 2 CPUs, where the model caps pool 1 → 4 at 0.50 and the post's 0.25 needs 4 CPUs.
import { fileURLToPath } from 'node:url';
import { readResults } from '../../../runner/results/read-results.js';
import { judgeResults } from '../../../runner/report/verdicts.js';
import { classifyOverall } from '../../../runner/verdicts/capacity-class.js';

const folder = readResults(fileURLToPath(new URL('../../fixtures/results/pbkdf2-waves', import.meta.url)));
const claim = (expect, compare = { uv_threadpool_size: [1, 4] }) => ({
  says: 'test',
  metric: null,
  compare,
  where: {},
  expect,
});
const rowOf = (verdicts) => verdicts.claims.find((row) => row.kind === 'claim');

test('a band the host cannot reach is "not reachable here", with the model value and the CPUs it needs', () => {
  const row = rowOf(judgeResults(folder, { claims: [claim({ ratio: 0.25, within: 0.2 })] }));
  expect(row.verdict).toBe('refuted');
  expect(row.class).toBe('not reachable here');
  expect(row.model_ratio).toBeCloseTo(0.5, 2);
  expect(row.class_note).toMatch(/this host caps it at 0\.5 \(measured 0\.5\d*\); the expected band needs cpus 2 → 4/);
});

test('a band the host can reach, refuted, is "contradicted"; one the model puts out of reach on any host too', () => {
  const reachable = rowOf(judgeResults(folder, { claims: [claim({ ratio: 0.8, within: 0.1 })] }));
  expect(reachable.verdict).toBe('refuted');
  expect(reachable.class).toBe('contradicted');
  // The model (the ideal) allows 0.5: a band between 1 and it asks for less than the host can give.
  expect(reachable.class_note).toBe(
    'the model allows up to 0.5 here, a bigger change than the expected band: this host could show it',
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

test('a claim overall: contradicted if any combination is, holds if all do, not reachable before inconclusive', () => {
  expect(classifyOverall([{ class: 'holds' }, { class: 'contradicted' }])).toBe('contradicted');
  expect(classifyOverall([{ class: 'holds' }, { class: 'holds' }])).toBe('holds');
  expect(classifyOverall([{ class: 'inconclusive' }, { class: 'not reachable here' }])).toBe('not reachable here');
  expect(classifyOverall([{ class: 'inconclusive' }])).toBe('inconclusive');
});
