import { DEFAULT_COMPARISON, METHODS } from '../../../runner/stats/compare-samples.js';
import { buildVerdicts } from '../../../runner/report/verdicts.js';
import { formatAnswersText, renderAnswersHtml, renderAnswersMarkdown } from '../../../runner/report/answers.js';
import { escapeMarkdown } from '../../../runner/report/markdown.js';
import { formatChange } from '../../../runner/report/verdict-words.js';

const AXES = ['workload', 'cpus'];
const cell = (cpus, values) => ({
  cell: `c${cpus}`,
  values: { workload: 'pbkdf2', cpus },
  workload: 'pbkdf2',
  runs: values.map((wall_ms) => ({ wall_ms })),
});
const CELLS = [cell(1, [1000, 1010, 990, 1005]), cell(2, [500, 505, 495, 502])];
const says = 'Two CPUs <b>halve</b> it | "fast"';
const verdicts = buildVerdicts(CELLS, AXES, [
  { says, metric: null, compare: { cpus: [1, 2] }, where: {}, expect: { ratio: 0.5, within: 0.1 } },
  { says: 'no gain', metric: null, compare: { cpus: [1, 2] }, where: {}, expect: { same: 0.05 } },
]);

test('the Answers section of report.md: badges, the claim in words, its combination, the steps, how it is computed', () => {
  const text = renderAnswersMarkdown(verdicts, escapeMarkdown).join('\n');
  expect(text).toMatch(
    /^## Answers\n\n### Claims\n\n- \*\*✔ holds\*\*: claimed: "Two CPUs \\<b\\>halve\\<\/b\\> it \\\| "fast"" \(wall_ms, cpus 1 → 2, ratio in \\\[0\.45, 0\.55\\\]; 1 combination\)/,
  );
  // Refuted with no capacity model of the metric: the class says so beside the verdict.
  expect(text).toContain('- **✘ refuted** (read: **refuted — no model**): claimed: "no gain"');
  expect(text).toMatch(
    / {2}- holds: cpus 1 → 2: wall_ms B\/A 0\.(49|5)\d* \\\[0\.\d+, 0\.\d+\\\] = −50% \\\[−5\d%, −\d\d%\\\] \(n 4\/4\)/,
  );
  expect(text).toContain('### What each axis does');
  expect(text).toContain('- pbkdf2 wall_ms: cpus moves it most');
  expect(text).toContain(`The ratio B / A is the ${METHODS[DEFAULT_COMPARISON.method].estimates}`);
  expect(text).toContain('[verdicts.csv](verdicts.csv)');
});

test('the Answers section of report.html escapes what the experiment says and carries one badge per verdict', () => {
  const html = renderAnswersHtml(verdicts);
  expect(html).not.toContain('<b>halve</b>');
  expect(html).toContain(
    'claimed: <q>Two CPUs &lt;b&gt;halve&lt;/b&gt; it | &quot;fast&quot;</q> (wall_ms, cpus 1 → 2, ratio in [0.45, 0.55]; 1 combination)',
  );
  expect(html.match(/Two CPUs/g)).toHaveLength(1);
  expect(html.match(/<span class="badge holds">holds<\/span>/g)).toHaveLength(2);
  expect(html.match(/<span class="badge refuted">refuted<\/span>/g)).toHaveLength(2);
  expect(html).toContain('<span class="badge faster">faster</span>');
});

test('the terminal block: each claim, its combinations indented, the step counts and the leading axis', () => {
  expect(formatAnswersText(verdicts)).toEqual([
    expect.stringMatching(/^HOLDS: claimed: "Two CPUs/),
    expect.stringMatching(/^ {4}holds: cpus 1 → 2/),
    expect.stringMatching(/^REFUTED: claimed: "no gain"/),
    expect.stringMatching(/^ {4}refuted: /),
    'Steps between neighbouring axis values: 1 faster (of 1).',
    expect.stringMatching(/^pbkdf2 wall_ms: cpus moves it most/),
  ]);
});

test('nothing to compare says so', () => {
  const none = buildVerdicts([CELLS[0]], AXES, []);
  expect(renderAnswersMarkdown(none, escapeMarkdown).join('\n')).toContain('nothing to compare');
  expect(renderAnswersHtml(none)).toBeNull();
});

test('formatChange: signed percentages, one decimal below 10%', () => {
  expect([0.51, 1.004, 1.0, 1.25, 0.9951, NaN].map(formatChange)).toEqual([
    '−49%',
    '+0.4%',
    '0%',
    '+25%',
    '−0.5%',
    '?',
  ]);
});

test('a claim on a value the folder never ran: the overall row names the metric and says what the folder has', () => {
  const lacking = buildVerdicts(CELLS, AXES, [
    { says: 'four CPUs', metric: null, compare: { cpus: [1, 4] }, where: {}, expect: { below: 0.5 } },
  ]);
  const [overall] = lacking.claims;
  expect(overall.words).toBe(
    'INCONCLUSIVE: claimed: "four CPUs" (wall_ms, cpus 1 → 4, ratio below 0.5; the folder has no cell with cpus=4; it has 1, 2)',
  );
  expect(overall.words).not.toMatch(/\bmetric\b/);
});

test("a post's words are marked as the post's, a control's as a control's: never read as measured here", () => {
  const marked = buildVerdicts(CELLS, AXES, [
    {
      says: 'halves it (≈ 400 ms on an M1)',
      post: '003',
      metric: null,
      compare: { cpus: [1, 2] },
      where: {},
      expect: { below: 0.6 },
    },
    {
      says: 'the same code both sides',
      control: true,
      metric: null,
      compare: { cpus: [1, 2] },
      where: {},
      expect: { below: 0.6 },
    },
  ]);
  const overall = marked.claims.filter((row) => row.kind === 'claim-overall');
  expect(overall.map((row) => row.words.split('" (')[0])).toEqual([
    'HOLDS: the post (003): "halves it (≈ 400 ms on an M1)',
    'HOLDS: control: "the same code both sides',
  ]);
  expect(renderAnswersHtml(marked)).toContain('the post (003): <q>halves it (≈ 400 ms on an M1)</q>');
  expect(renderAnswersMarkdown(marked, escapeMarkdown).join('\n')).toContain(
    '- **✔ holds**: the post (003): "halves it (≈ 400 ms on an M1)"',
  );
});
