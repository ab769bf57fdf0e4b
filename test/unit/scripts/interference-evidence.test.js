// The evidence script: Spearman's rho against SciPy on fixed samples (ties included), and what the committed
// folders of docs/interference/ show.
import { fileURLToPath } from 'node:url';
import { readResults } from '../../../runner/results/read-results.js';
import { readBusy, spearman, summarizeEvidence } from '../../../scripts/interference-evidence.js';

const folder = (name) => fileURLToPath(new URL(`../../fixtures/results/interference-${name}`, import.meta.url));
const evidenceOf = (name) =>
  summarizeEvidence(readResults(folder(name), { keepDisturbed: true }), readBusy(folder(name)));

test("Spearman's rho equals scipy.stats.spearmanr", () => {
  expect(spearman([1, 2, 3, 4, 5], [5, 6, 7, 8, 7])).toBeCloseTo(0.8207826816681233, 12);
  expect(spearman([3.1, 1.2, 5.5, 2.2, 2.2, 9.0], [10, 4, 8, 3, 6, 7])).toBeCloseTo(0.6667366910003157, 12);
});

test('the committed folders: the runs beside busy loops had more interference, and interference ranks the slow runs', () => {
  const { groups, runs, rho } = evidenceOf('pbkdf2-alternate-nice-20');
  const [without, beside] = groups;
  expect([without.busy, without.n, beside.busy, beside.n]).toEqual([false, 10, true, 10]);
  expect(beside.interference).toBeGreaterThan(without.interference);
  expect(beside.wallRatio).toBeGreaterThan(without.wallRatio);
  expect(runs).toHaveLength(20);
  expect(rho.interference).toBeGreaterThan(0.5);
  expect(evidenceOf('pbkdf2-20').rho.interference).toBeGreaterThan(0.5);
  const quiet = evidenceOf('pbkdf2-alternate-nice-20-quiet-host').groups;
  expect(quiet[1].interference).toBeGreaterThan(5 * quiet[0].interference);
});
