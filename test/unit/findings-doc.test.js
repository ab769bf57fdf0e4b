// docs/findings.md is generated (scripts/findings.js) from docs/findings.src.md, published-experiments.yml and
// the results folders: no number in it is typed by hand, and it is never out of date with its sources.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateFindings } from '../../scripts/findings.js';

const at = (path) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const SOURCES = { resultsDir: at('docs/findings'), configFile: at('published-experiments.yml'), linkBase: at('docs') };

describe('scripts/findings.js', () => {
  test('docs/findings.md is what the script makes of its sources (run `node scripts/findings.js` after a change)', async () => {
    const generated = await generateFindings({ ...SOURCES, source: readFileSync(at('docs/findings.src.md'), 'utf8') });
    expect(generated).toBe(readFileSync(at('docs/findings.md'), 'utf8'));
  });

  test('the same folders give the same bytes', async () => {
    const source = readFileSync(at('docs/findings.src.md'), 'utf8');
    expect(await generateFindings({ ...SOURCES, source })).toBe(await generateFindings({ ...SOURCES, source }));
  });

  test('claims get their verdicts and interval from the runs; a folder not run yet says so', async () => {
    const source = ['<!-- findings:claims http-taskset -->', '<!-- findings:claims template-idle -->', '<!-- findings:table http-taskset metric=requests_per_sec rows=cpuset -->'].join('\n');
    const text = await generateFindings({ ...SOURCES, source });
    expect(text).toMatch(/\| Pinning the 2-thread server .* \| requests_per_sec: cpuset 0-1 → 0 \| [\d.]+ \[[\d.]+, [\d.]+\] \(n 5\/5\) \| ratio in \[0\.442, 0\.598\] \| \*\*(holds|refuted|inconclusive)\*\*/);
    expect(text).toContain('(no claims)');
    expect(text).toMatch(/^\| 0 \| [\d.]+ \[[\d.]+, [\d.]+\] 94% \(n 5\) \|$/m);
  });

  test('a folder without the claim\'s column says the claim was not checked; an empty results root, not run yet', async () => {
    const checked = await generateFindings({ ...SOURCES, source: '<!-- findings:claims cluster-size -->' });
    expect(checked).toMatch(/burst_p50_ms \| not measured: the folder's design predates this column \| \| \*\*not checked\*\*/);
    const empty = await generateFindings({ ...SOURCES, resultsDir: mkdtempSync(join(tmpdir(), 'lab-findings-')), source: '<!-- findings:runs -->\n<!-- findings:claims http-taskset -->' });
    expect(empty).toContain('| http-taskset | — | not run yet |');
    expect(empty).toContain('- **not run yet**: "Pinning the 2-thread server');
  });

  test('an unknown directive is an error naming the known ones', async () => {
    await expect(generateFindings({ ...SOURCES, source: '<!-- findings:chart x -->' })).rejects.toThrow(/unknown directive findings:chart/);
  });
});
