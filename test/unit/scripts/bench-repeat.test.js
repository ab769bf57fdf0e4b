// npm run bench:repeat on three real races of the default file (test/fixtures/results/settling-race-1..3): per budget
// each invocation's answer, how often the picks agree, and whether each pick is within `within` of the best on the
// pooled runs of all three.
import { fileURLToPath } from 'node:url';
import { main } from '../../../scripts/bench-repeat.js';
import { advisePooled, compareInvocations } from '../../../scripts/lib/repeat-figures.js';
import { LabError } from '../../../runner/errors.js';
import { readResults } from '../../../runner/results/read-results.js';

const fixture = (name) => fileURLToPath(new URL(`../../fixtures/results/${name}`, import.meta.url));
const RACES = ['settling-race-1', 'settling-race-2', 'settling-race-3'].map(fixture);

test('per budget: the three answers, how many picks agree, each pick against the pooled best', () => {
  const { budgets } = compareInvocations(RACES);
  expect(budgets.map((budget) => budget.key)).toEqual([
    'cpus=1 · pbkdf2 · wall_ms',
    'cpus=2 · pbkdf2 · wall_ms',
    'cpus=1 · argon2 · wall_ms',
    'cpus=2 · argon2 · wall_ms',
  ]);
  for (const budget of budgets) {
    expect(budget.answers).toHaveLength(3);
    const picked = budget.answers.map((answer) => answer.recommended);
    expect(budget.agree).toBe(picked.filter((label) => label === budget.mode).length);
    expect(budget.picks.map((pick) => pick.label).sort()).toEqual([...new Set(picked)].sort());
    for (const pick of budget.picks) {
      expect(pick.gap_pct).toBeGreaterThanOrEqual(0);
      expect(pick.within).toBe(pick.gap_pct <= 5);
    }
  }
  // On these quiet races every pick is within 5% of the pooled best, whether or not the picks agree.
  expect(budgets.flatMap((budget) => budget.picks).every((pick) => pick.within)).toBe(true);
});

test("the pooled advice keeps each invocation's rounds apart: no round label is shared between folders", () => {
  const folders = RACES.map((dir) => readResults(dir));
  const [answer] = advisePooled(folders);
  const runs = answer.settings.reduce((sum, setting) => sum + setting.n, 0);
  const perFolder = folders.map(
    (results) =>
      results.runs.filter(
        (run) =>
          run.status === 'ok' && !run.disturbed && run.workload === 'pbkdf2' && run.cpus === 1 && run.warmup !== true,
      ).length,
  );
  expect(runs).toBe(perFolder.reduce((sum, n) => sum + n, 0));
});

test('the command: --folders prints the table; one folder, or folders of different experiments, is exit 2 in words', async () => {
  let text = '';
  const stdout = { write: (chunk) => (text += chunk) };
  expect(await main(['--folders', ...RACES], { stdout, stderr: { write: () => true } })).toBe(0);
  expect(text).toMatch(/^\| cpus=2 · argon2 · wall_ms \| .* \| \d of 3 \| /m);
  expect(text).toMatch(/^Picks within the margin of the best on the pooled runs: \d+ of \d+\./m);
  await expect(main(['--folders', RACES[0]], { stdout })).rejects.toThrow(/two results folders or more/);
  await expect(main(['--folders', RACES[0], fixture('pbkdf2-waves')], { stdout })).rejects.toThrow(LabError);
});
