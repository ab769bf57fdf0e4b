// docs/findings.md is generated (scripts/findings.js) from docs/findings.src.md, published-experiments.yml and
// the results folders: no number in it is typed by hand, and it is never out of date with its sources. The same
// holds for its charts (SVG files beside it) and for the README's headline block.
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateFindings, locateFolder, replaceHeadlines } from '../../../scripts/findings.js';

const at = (path) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));
const SOURCES = { resultsDir: at('docs/findings'), configFile: at('published-experiments.yml'), linkBase: at('docs') };
const generate = (source, extra = {}) => generateFindings({ ...SOURCES, ...extra, source });
const RECHECK = at('test/fixtures/results/recheck-http-quota');

// docs/findings with a folder the config does not name beside its own (a recheck, from the fixtures).
function findingsWithRecheck() {
  const root = mkdtempSync(join(tmpdir(), 'lab-findings-recheck-'));
  for (const name of readdirSync(at('docs/findings'))) symlinkSync(at(`docs/findings/${name}`), join(root, name));
  symlinkSync(RECHECK, join(root, 'recheck-http-quota'));
  return root;
}

describe('scripts/findings.js', () => {
  test('docs/findings.md, its charts and the README headlines are what the script makes of their sources (run `npm run findings` after a change)', async () => {
    const { text, charts, headlines } = await generate(readFileSync(at('docs/findings.src.md'), 'utf8'));
    expect(text).toBe(readFileSync(at('docs/findings.md'), 'utf8'));
    expect(charts.size).toBeGreaterThan(0);
    for (const [path, svg] of charts) expect([path, svg]).toEqual([path, readFileSync(join(at('docs'), path), 'utf8')]);
    const readme = readFileSync(at('README.md'), 'utf8');
    expect(replaceHeadlines(readme, headlines)).toBe(readme);
  });

  test('the same folders give the same bytes', async () => {
    const source = readFileSync(at('docs/findings.src.md'), 'utf8');
    const [first, second] = [await generate(source), await generate(source)];
    expect(second.text).toBe(first.text);
    expect([...second.charts]).toEqual([...first.charts]);
  });

  test('claims get their verdicts and interval from the runs; a folder not run yet says so', async () => {
    const source = [
      '<!-- findings:claims http-taskset -->',
      '<!-- findings:claims template-idle -->',
      '<!-- findings:table http-taskset metric=requests_per_sec rows=cpuset -->',
    ].join('\n');
    const { text } = await generate(source);
    expect(text).toMatch(
      /\| THREADS=2, pinned to one core .* \| requests_per_sec: cpuset 0-1 → 0 \| [\d.]+ \[[\d.]+, [\d.]+\] \(n \d+\/\d+\) \| (—|[\d.]+) \| ratio in \[0\.40375, 0\.54625\] \| \*\*(holds|contradicted|not reachable here|outside the post.s conditions|inconclusive)\*\* \((holds|refuted|inconclusive)/,
    );
    expect(text).toContain('(no claims)');
    expect(text).toMatch(/^\| 0 \| [\d.]+ \[[\d.]+, [\d.]+\]( \d+%)? \(n \d+\) \|$/m);
    const empty = await generate(
      '<!-- findings:runs -->\n<!-- findings:claims http-taskset -->\n<!-- findings:chart http-taskset metric=requests_per_sec x=cpuset -->',
      { resultsDir: mkdtempSync(join(tmpdir(), 'lab-findings-')) },
    );
    expect(empty.text).toContain('| http-taskset | — | not run yet |');
    expect(empty.text).toContain('- **not run yet**: "THREADS=2, pinned to one core');
    expect(empty.text).toContain('(chart: not run yet)');
    expect(empty.headlines.join('\n')).toMatch(/No published experiment has been run yet/);
  });

  test('a control is marked where it is shown and counted apart; claims are counted by claim, comparisons apart; published claims no folder answers are counted too', async () => {
    const { text, headlines } = await generate('<!-- findings:claims sum-1e9 -->\n<!-- findings:claims-summary -->');
    expect(text).toMatch(
      /^\| \(control\) N = 10\^9, the same loop on both sides: one worker .* \| wall_ms: workers 0 → 1 at cluster=0 \|/m,
    );
    // The README's headline is three lines: the claims by class, the comparisons and controls apart, the link.
    expect(headlines).toHaveLength(3);
    const [, published, byClaim] = /: (\d+) published claims: \*\*(.*)\*\*; /.exec(headlines[0]);
    const sum = (counts) => [...counts.matchAll(/(\d+) [^,]+/g)].reduce((total, [, n]) => total + Number(n), 0);
    expect(sum(byClaim)).toBe(Number(published));
    const [, comparisons, byComparison] = /judged in (\d+) comparisons \([^)]*\): ([^;]+);/.exec(headlines[1]);
    expect(sum(byComparison)).toBe(Number(comparisons));
    expect(Number(comparisons)).toBeGreaterThan(Number(published));
    const [, controls] = /; (\d+) controls \(checks of the design, not the posts' claims\): /.exec(headlines[1]);
    expect(Number(published)).toBeGreaterThan(Number(controls));
    // findings.md lists every claim once, with its own class.
    expect(
      text
        .split('\n')
        .filter((line) => line.startsWith('| sum-1e9: (control) N = 10^9, the same loop on both sides: one worker')),
    ).toHaveLength(1);
    // A claim is counted once however many combinations it is checked in; controls apart.
    const noFolders = { resultsDir: mkdtempSync(join(tmpdir(), 'lab-findings-none-')) };
    for (const name of ['cluster-size', 'sum-1e9'])
      cpSync(at(`docs/findings/${name}`), join(noFolders.resultsDir, name), { recursive: true });
    const one = await generate('', noFolders);
    expect(one.headlines[0]).toMatch(
      /: 1 published claims: \*\*0 hold, 1 contradicted\*\*; 1 of them judged after a change/,
    );
    expect(one.headlines[1]).toMatch(
      /judged in 1 comparisons .*; 2 controls \(checks of the design, not the posts' claims\): .*, in 2 comparisons; \d+ published claims not run yet \(pbkdf2-waves, /,
    );
  });

  test("a claim changed after its runs is marked: the folder's claims.json holds the hash its runs were made for", async () => {
    const root = mkdtempSync(join(tmpdir(), 'lab-findings-fixed-'));
    cpSync(at('docs/findings/ab-fast-route'), join(root, 'ab-fast-route'), { recursive: true });
    const source = '<!-- findings:claims ab-fast-route -->\n<!-- findings:claims-summary -->';
    const fixed = await generate(source, { resultsDir: root });
    expect(fixed.text).toMatch(/^\| ab-fast-route: .*\| written .*; runs .*: fixed before its runs/m);
    expect(fixed.text).not.toContain('judged after a change');
    // The same folder, the claim's expect changed after its runs: every place it is shown says so.
    const yml = readFileSync(at('published-experiments.yml'), 'utf8');
    const changed = yml.replace('        expect: {below: 0.1}', '        expect: {below: 0.2}');
    expect(changed).not.toBe(yml);
    const configFile = join(root, 'published-experiments.yml');
    writeFileSync(configFile, changed);
    const marked = await generate(source, { resultsDir: root, configFile });
    expect(marked.text).toMatch(/^\| Without cluster .*\*\* \(holds\) — judged after a change \|/m);
    expect(marked.text).toMatch(
      /^\| ab-fast-route: .*: \*\*judged after a change\*\*: the runs were made for another/m,
    );
    expect(marked.headlines[0]).toMatch(/; 1 of them judged after a change/);
    // A folder that records no claims cannot say: marked too.
    rmSync(join(root, 'ab-fast-route', 'claims.json'));
    const unrecorded = await generate(source, { resultsDir: root });
    expect(unrecorded.text).toMatch(/\*\*judged after a change\?\*\* the folder records no claims/);
  });

  test("every deviation is generated from the claim's own fields: the post's operation beside the workload's, its packages beside the image's, the runs a cell beside docs/statistics.md's", async () => {
    const { text } = await generate('<!-- findings:deviations -->');
    const lock = JSON.parse(readFileSync(at('images/workload/package-lock.json'), 'utf8'));
    const [, recommended] = /\*\*Recommended, from profile \S+: `repetitions: (\d+)`/.exec(
      readFileSync(at('docs/statistics.md'), 'utf8'),
    );
    // argon2: the post hashes; each task here hashes and verifies.
    expect(text).toMatch(
      /^\| argon2-pool-100: 100 hashes on 1 core: .* \| operation a task \| `argon2\.hash\('1234567'\)` \| argon2\.hash of a password, then argon2\.verify of that hash .*: two hashes' work a task \|$/m,
    );
    // Fastify: the post pins fastify@3; the image's comes from its lock file.
    expect(text).toContain(
      `| package | \`fastify@3\` | fastify@${lock.packages['node_modules/fastify'].version} (the workload image's`,
    );
    // Runs a cell: below the recommendation, said with it.
    expect(text).toMatch(
      new RegExp(
        `\\| runs a cell \\| not given \\| 3 a cell: fewer than the ${recommended} docs/statistics\\.md recommends`,
      ),
    );
  });

  test('an increment directive gives what one more of an axis adds, from the two medians', async () => {
    const { text } = await generate(
      '<!-- findings:increment idle-memory metric=rss_mb axis=workers a=0 b=16 where=cluster:0 -->',
    );
    const [, high, low, per] =
      /^- rss_mb, workers 0 → 16 at cluster 0: \(([\d.]+) − ([\d.]+)\) ÷ 16 = \*\*([\d.]+) MiB for each one more in `workers`\*\* \(medians of n 5 and 5\)$/.exec(
        text,
      );
    expect(Number(per)).toBeCloseTo((Number(high) - Number(low)) / 16, 1);
    expect(
      (
        await generate('<!-- findings:increment nowhere metric=rss_mb axis=workers a=0 b=16 -->', {
          configFile: SOURCES.configFile,
        })
      ).text,
    ).toBe('(increment: not run yet)');
  });

  test('a folder outside the config (a recheck a table names) counts neither in the span of the run nor in the headline', async () => {
    const { text, headlines } = await generate(
      '<!-- findings:runs -->\n<!-- findings:table recheck-http-quota metric=requests_per_sec rows=workers columns=cpus -->',
      { resultsDir: findingsWithRecheck() },
    );
    expect(text).toMatch(/^\| 1 \| [\d.]+ /m);
    const [, span] = /^\d+ experiments, (.*)\.$/m.exec(text);
    expect(headlines[0]).toContain(`; ${span})`);
  });

  test('a chart directive makes an SVG with one dot per ok run and a median bar per cell, named after its arguments', async () => {
    const { text, charts } = await generate('<!-- findings:chart pbkdf2-waves metric=wall_ms x=uv_threadpool_size -->');
    const [[path, svg]] = [...charts];
    expect(path).toBe('findings/charts/pbkdf2-waves--wall_ms--uv_threadpool_size.svg');
    expect(text).toContain(`](${path})`);
    const runs = readFileSync(at('docs/findings/pbkdf2-waves/runs.csv'), 'utf8').trim().split('\n').length - 1;
    expect(svg.match(/<circle /g)).toHaveLength(runs);
    expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg).toContain('wall_ms (ms)');
  });

  test("an order directive gives each cell's waves and completion times from tasks.csv", async () => {
    const { text } = await generate('<!-- findings:order pbkdf2-waves rows=uv_threadpool_size -->');
    // Pool 1 finishes the 16 calls one by one in every run.
    expect(text).toMatch(/^\| 1 \| 1\+1\+1\+1\+1\+1\+1\+1\+1\+1\+1\+1\+1\+1\+1\+1 ×\d+ \| (\d+, ){15}\d+ \|$/m);
    expect(text).toMatch(/^\| 4 \| .*×\d+ \| /m);
  });

  test("a ratio directive compares two experiments' cells (B / A with its interval); a side not run says so", async () => {
    const { text } = await generate(
      '<!-- findings:ratio metric=wall_ms a=sum-1e9:workers=0,cluster=0 b=sum-1e9:workers=0,cluster=2 -->',
    );
    expect(text).toMatch(
      /^- wall_ms, sum-1e9 \(workers 0, cluster 2\) ÷ sum-1e9 \(workers 0, cluster 0\): [\d.]+ \[[\d.]+, [\d.]+\] \(n \d+\/\d+\)$/,
    );
    const missing = await generate('<!-- findings:ratio metric=wall_ms a=sum-1e9:workers=0 b=nowhere:workers=0 -->');
    expect(missing.text).toBe('(ratio: not run yet)');
  });

  test("CPU per response: over the server's own count of the window (requests_served) where the folder has it, else the loader's rate over that window", async () => {
    const directive = '<!-- findings:table recheck-http-quota metric=cpu_ms_per_response rows=workers columns=cpus -->';
    const estimated = (await generate(directive, { resultsDir: findingsWithRecheck() })).text;
    expect(estimated).toMatch(/^\| 1 \| [\d.]+ \[/m);
    const root = mkdtempSync(join(tmpdir(), 'lab-findings-served-'));
    cpSync(RECHECK, join(root, 'recheck-http-quota'), { recursive: true });
    const file = join(root, 'recheck-http-quota', 'runs.csv');
    // 40 ms of CPU time per request served, in every run: the table must show exactly that.
    const runs = parse(readFileSync(file, 'utf8'), { columns: true }).map((run) => ({
      ...run,
      requests_served: String(Number(run.cpu_total_ms) / 40),
    }));
    writeFileSync(file, stringify(runs, { header: true }));
    const { text } = await generate(directive, { resultsDir: root });
    expect(text).not.toBe(estimated);
    expect(text).toMatch(/^\| 1 \| 40\.0 \[40\.0, 40\.0\] 50% \(n 2\) \| 40\.0 \[40\.0, 40\.0\] 50% \(n 2\) \|$/m);
  });

  test("a results root: DIR/<experiment>, else its newest <experiment>-<UTC time> folder (never another experiment's)", () => {
    const root = mkdtempSync(join(tmpdir(), 'lab-findings-root-'));
    for (const name of ['sum-1e9-20260101T000000Z', 'sum-1e9-20261124T120000Z', 'sum-1e9-closure-20271231T000000Z']) {
      cpSync(at('docs/findings/sum-1e9'), join(root, name), { recursive: true });
    }
    mkdirSync(join(root, 'sum-1e9-20281231T000000Z'));
    expect(locateFolder(root, 'sum-1e9')).toBe(join(root, 'sum-1e9-20261124T120000Z'));
    expect(locateFolder(root, 'sum-1e7')).toBeNull();
    cpSync(at('docs/findings/sum-1e9'), join(root, 'sum-1e9'), { recursive: true });
    expect(locateFolder(root, 'sum-1e9')).toBe(join(root, 'sum-1e9'));
  });

  test('the README block is replaced between its markers; a README without them is an error', () => {
    const readme = 'intro\n<!-- findings:headlines:start -->\nold\n<!-- findings:headlines:end -->\nrest\n';
    expect(replaceHeadlines(readme, ['new 1', 'new 2'])).toBe(
      'intro\n<!-- findings:headlines:start -->\nnew 1\nnew 2\n<!-- findings:headlines:end -->\nrest\n',
    );
    expect(() => replaceHeadlines('no markers', ['x'])).toThrow(/findings:headlines:start/);
  });

  test('an unknown directive is an error naming the known ones', async () => {
    await expect(generate('<!-- findings:plot x -->')).rejects.toThrow(
      /unknown directive findings:plot.*|expected one of runs, claims, table, chart, order/,
    );
  });
});
