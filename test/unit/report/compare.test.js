import { fileURLToPath } from 'node:url';
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { parse } from 'csv-parse/sync';
import { compareFolders, compareResults, formatComparison } from '../../../runner/report/compare.js';
import { judgeGate, parseThreshold } from '../../../runner/verdicts/compare-cells.js';
import { readResults } from '../../../runner/results/read-results.js';
import { findHostDifferences, readHostFacts } from '../../../runner/results/host-facts.js';
import { DEFAULT_COMPARISON, METHODS } from '../../../runner/stats/compare-samples.js';

const fixture = (name) => fileURLToPath(new URL(`../../fixtures/results/${name}`, import.meta.url));

function results(cells, axes = ['workload', 'cpus']) {
  const runs = cells.flatMap(({ cell, workload = 'pbkdf2', cpus, node, values, metric = 'wall_ms' }) =>
    values.map((value, i) => ({
      experiment: 'x',
      cell,
      repetition: i + 1,
      workload,
      cpus,
      node,
      status: 'ok',
      [metric]: value,
    })),
  );
  return { runs, tasks: [], info: null, axes };
}

describe('compareResults', () => {
  const a = results([
    { cell: 'same', cpus: 1, values: [100, 101, 99] },
    { cell: 'faster', cpus: 2, values: [100, 102, 98] },
    { cell: 'gone', cpus: 4, values: [1, 2] },
  ]);
  const b = results([
    { cell: 'same', cpus: 1, values: [100, 99, 101] },
    { cell: 'faster', cpus: 2, values: [80, 81, 79] },
    { cell: 'new', cpus: 8, values: [1, 2] },
  ]);
  const comparison = compareResults(a, b);

  test('matches cells by id and compares each primary metric', () => {
    expect(comparison.rows.map((row) => [row.cell, row.metric, row.median_a, row.median_b])).toEqual([
      ['same', 'wall_ms', 100, 100],
      ['faster', 'wall_ms', 100, 80],
    ]);
    expect(comparison.onlyA.map((cell) => cell.cell)).toEqual(['gone']);
    expect(comparison.onlyB.map((cell) => cell.cell)).toEqual(['new']);
    expect(comparison.columns).toEqual([
      'cell',
      'cell_b',
      'workload',
      'cpus',
      'metric',
      'n_a',
      'n_b',
      'median_a',
      'median_b',
      'mean_a',
      'mean_b',
      'ratio',
      'ratio_ci95_low',
      'ratio_ci95_high',
      'p_value',
      'significance',
      'verdict',
      'p_regression_holm',
      'regression',
      'words',
    ]);
    expect(comparison.rows.map((row) => row.label)).toEqual(['cpus=1', 'cpus=2']);
  });

  test('ratio, interval, stars and a verdict in the direction of the metric', () => {
    const [same, faster] = comparison.rows;
    expect(same).toMatchObject({ significance: '', verdict: 'same', regression: false });
    expect(same.ratio).toBeCloseTo(1, 3);
    expect(same.ratio_ci95_low).toBeGreaterThan(0.95);
    expect(faster).toMatchObject({ significance: '***', verdict: 'better' });
    expect(faster.ratio).toBeCloseTo(0.8, 3);
    expect(faster.ratio_ci95_low).toBeLessThan(0.8);
    expect(faster.ratio_ci95_high).toBeLessThan(1);
  });

  test('"same" only when the interval lies inside the threshold; a wide interval is inconclusive', () => {
    const wideA = results([{ cell: 'w', cpus: 1, values: [80, 100, 120] }]);
    const wideB = results([{ cell: 'w', cpus: 1, values: [82, 99, 121] }]);
    expect(compareResults(wideA, wideB).rows[0]).toMatchObject({ verdict: 'inconclusive', regression: false });
    expect(compareResults(a, b, { threshold: 0.01 }).rows[0].verdict).toBe('inconclusive');
  });

  test('regression: worse by more than the threshold with the whole interval beyond it', () => {
    const slower = compareResults(b, a, { threshold: 0.05 }).rows.find((row) => row.cell === 'faster');
    expect(slower).toMatchObject({ verdict: 'worse', regression: true });
    expect(compareResults(b, a, { threshold: 0.3 }).rows.find((row) => row.cell === 'faster')).toMatchObject({
      verdict: 'worse',
      regression: false,
    });
  });

  test('--match-on pairs cells that differ only in that axis', () => {
    const axes = ['workload', 'cpus', 'node'];
    const node22 = results(
      [
        { cell: 'a1', cpus: 1, node: 22, values: [100, 101, 99] },
        { cell: 'a2', cpus: 2, node: 22, values: [50, 51, 49] },
      ],
      axes,
    );
    const node24 = results(
      [
        { cell: 'b1', cpus: 1, node: 24, values: [90, 91, 89] },
        { cell: 'b3', cpus: 4, node: 24, values: [30, 31] },
      ],
      axes,
    );
    expect(compareResults(node22, node24).rows).toEqual([]);
    const matched = compareResults(node22, node24, { matchOn: 'node' });
    expect(matched.rows.map((row) => [row.cell, row.cell_b, row.node, row.verdict, row.label])).toEqual([
      ['a1', 'b1', '22→24', 'better', 'pbkdf2 cpus=1 node=22→24'],
    ]);
    expect(matched.onlyA.map((cell) => cell.cell)).toEqual(['a2']);
    expect(matched.onlyB.map((cell) => cell.cell)).toEqual(['b3']);
  });

  test('higher requests_per_sec is better', () => {
    const httpA = results([{ cell: 'h', workload: 'http', values: [1000, 1010, 990], metric: 'requests_per_sec' }]);
    const httpB = results([{ cell: 'h', workload: 'http', values: [800, 810, 790], metric: 'requests_per_sec' }]);
    const rows = compareResults(httpA, httpB).rows;
    expect(rows.map((row) => [row.metric, row.verdict])).toEqual([
      ['requests_per_sec', 'worse'],
      ['latency_p99_ms', 'inconclusive'],
    ]);
  });

  test('prints the cell by its axis values, n per side, both medians, the ratio with its interval, stars and the false-positive warning', () => {
    const text = formatComparison(comparison);
    expect(text).toMatch(/^cell\s+metric\s+n A\/B\s+median A/m);
    expect(text).toMatch(/^cpus=2\s+wall_ms\s+3\/3\s+100 ms\s+80 ms\s+0\.800?1? \[0\.\d+, 0\.\d+\]\s+\*\*\*/m);
    expect(text).toContain('Significance (that test): * p < 0.05, ** p < 0.01, *** p < 0.001');
    expect(text).toContain('"about the same" only when\nit lies inside ±5%; otherwise "not distinguishable"');
    expect(text).toMatch(/^cpus=1 .* about the same$/m);
    expect(text).toMatch(/^cpus=2 .* faster$/m);
    expect(text).toContain('with 2 comparisons');
    expect(text).toContain('Only in A');
  });
});

describe('the gate', () => {
  test('a threshold is a percentage: "5" and "5%" are 5%; a bare number below 1 is refused as ambiguous', () => {
    expect([parseThreshold('5'), parseThreshold('5%'), parseThreshold(' 2.5 % '), parseThreshold('0.5%')]).toEqual([
      0.05, 0.05, 0.025, 0.005,
    ]);
    expect(() => parseThreshold('0.05')).toThrow(/--threshold 0\.05 is ambiguous: 0\.05% or 5%\?/);
    expect(() => parseThreshold('100')).toThrow(/between 0 and 100/);
    expect(() => parseThreshold('lots')).toThrow(/between 0 and 100/);
  });

  test('Holm across the gate: a regression p that alone would fail passes when it is one of several', () => {
    expect(judgeGate([0.03]).map((row) => row.regression)).toEqual([true]);
    expect(judgeGate([0.03, 0.03, 0.03]).map((row) => row.regression)).toEqual([false, false, false]);
    expect(judgeGate([0.001, 0.03, 1]).map((row) => [row.p_holm, row.regression])).toEqual([
      [0.003, true],
      [0.06, false],
      [1, false],
    ]);
  });

  test("a regression is judged in the metric's direction, beyond the threshold", () => {
    const slowerA = results([{ cell: 's', cpus: 1, values: [100, 101, 99] }]);
    const slowerB = results([{ cell: 's', cpus: 1, values: [130, 131, 129] }]);
    expect(compareResults(slowerA, slowerB, { threshold: 0.05 }).rows[0]).toMatchObject({
      verdict: 'worse',
      regression: true,
    });
    expect(compareResults(slowerB, slowerA, { threshold: 0.05 }).rows[0]).toMatchObject({
      verdict: 'better',
      regression: false,
    });
    expect(compareResults(slowerA, slowerB, { threshold: 0.5 }).rows[0]).toMatchObject({
      verdict: 'worse',
      regression: false,
    });
  });

  test('compareFolders: the text names failing cells by axis values, with n and the Holm p; no CSV unless asked', () => {
    const cwd = process.cwd();
    const { text, exitCode, files } = compareFolders({
      dirA: fixture('pool-vs-cores-b'),
      dirB: fixture('pool-vs-cores'),
      threshold: '5',
    });
    expect(exitCode).toBe(1);
    expect(files).toEqual([]);
    expect(text).toMatch(
      /^gate: FAILED, \d+ worse by more than 5% with the whole 95% CI beyond it \(Holm-corrected across the 16 comparisons\):$/m,
    );
    expect(text).toMatch(
      /^ {2}pbkdf2 cpus=1 uv_threadpool_size=4 wall_ms ×1\.25 \[1\.2\d, 1\.2\d\] \(n 3\/3, p [\d.]+\)$/m,
    );
    expect(text).not.toMatch(/\b[0-9a-f]{10}\b/);
    expect(process.cwd()).toBe(cwd);
  });
});

test('npm run compare -- DIR_A DIR_B --out FILE prints the table and writes the CSV there', async () => {
  const out = join(mkdtempSync(join(tmpdir(), 'compare-')), 'compare.csv');
  const { stdout, exitCode } = await execa(
    'node',
    ['runner/cli.js', 'compare', fixture('pool-vs-cores'), fixture('pool-vs-cores-b'), '--out', out],
    { cwd: fileURLToPath(new URL('../../..', import.meta.url)) },
  );
  expect(exitCode).toBe(0);
  // pool-vs-cores-b: every uv_threadpool_size=4 cell × 0.8, argon2 cpus=1 pool 8 × 1.25
  expect(stdout).toMatch(
    /argon2 cpus=1 uv_threadpool_size=4\s+wall_ms\s+3\/3\s+3121 ms\s+2497 ms\s+0\.8 \[[\d.]+, [\d.]+\]\s+\*\*\*/,
  );
  expect(stdout).toContain(`wrote ${out}`);
  const csv = readFileSync(out, 'utf8').split('\r\n');
  expect(csv[0]).toBe(
    'cell,cell_b,workload,cpus,cpuset,uv_threadpool_size,workers,cluster,node,metric,n_a,n_b,median_a,median_b,mean_a,mean_b,ratio,ratio_ci95_low,ratio_ci95_high,p_value,significance,verdict,p_regression_holm,regression,words',
  );
  // The four 20% gains are called better, the 25% loss worse. The unchanged cells are copies, but 3 runs cannot show
  // them "the same within 5%" except argon2 cpus=2 pool 1 (cv 1%): inconclusive, never "same" by default.
  const verdicts = parse(readFileSync(out), { columns: true }).map((row) => row.verdict);
  expect(verdicts.filter((verdict) => verdict === 'better')).toHaveLength(4);
  expect(verdicts.filter((verdict) => verdict === 'worse')).toHaveLength(1);
  expect(verdicts.filter((verdict) => verdict === 'same')).toHaveLength(1);
  expect(verdicts.filter((verdict) => verdict === 'inconclusive')).toHaveLength(10);
  expect(stdout).not.toContain('gate:');
  expect(readResults(fixture('pool-vs-cores-b')).runs).toHaveLength(48);
});

test('compare with a wrong argument count exits 2 with the usage', async () => {
  const { stderr, exitCode } = await execa('node', ['runner/cli.js', 'compare', fixture('pool-vs-cores')], {
    reject: false,
    cwd: fileURLToPath(new URL('../../..', import.meta.url)),
  });
  expect(exitCode).toBe(2);
  expect(stderr).toContain('expected two results folders, found 1');
});

test('compare --threshold is a gate: exit 1 on a regression beyond it, 0 otherwise; no compare.csv without --out', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'compare-cwd-'));
  const CLI = fileURLToPath(new URL('../../../runner/cli.js', import.meta.url));
  // B → A: the uv_threadpool_size=4 cells get 1.25 × slower, most with the whole interval beyond +5%.
  const failed = await execa(
    'node',
    [CLI, 'compare', fixture('pool-vs-cores-b'), fixture('pool-vs-cores'), '--threshold', '5'],
    { cwd, reject: false },
  );
  expect(failed.stdout).toMatch(
    /gate: FAILED, \d+ worse by more than 5% with the whole 95% CI beyond it \(Holm-corrected across the 16 comparisons\):\n {2}pbkdf2 cpus=1 uv_threadpool_size=4 wall_ms /,
  );
  expect(failed.exitCode).toBe(1);
  // A → B: the one loss (argon2 cpus=1 pool 8, ×1.25 [1.02, 1.53]) is not beyond +5% with its whole interval.
  const passed = await execa(
    'node',
    [CLI, 'compare', fixture('pool-vs-cores'), fixture('pool-vs-cores-b'), '--threshold', '5%'],
    { cwd, reject: false },
  );
  expect(passed.stdout).toContain('gate: passed');
  expect(passed.exitCode).toBe(0);
  expect(readdirSync(cwd)).toEqual([]);
  const bad = await execa(
    'node',
    [CLI, 'compare', fixture('pool-vs-cores'), fixture('pool-vs-cores-b'), '--threshold', 'lots'],
    { cwd, reject: false },
  );
  expect(bad.stderr).toContain('--threshold takes a percentage');
  expect(bad.exitCode).toBe(2);
});

test('compare --match-on with an axis neither folder has, or one that leaves cells ambiguous, exits 2', async () => {
  const cwd = fileURLToPath(new URL('../../..', import.meta.url));
  const run = (axis) =>
    execa(
      'node',
      ['runner/cli.js', 'compare', fixture('pool-vs-cores'), fixture('pool-vs-cores-b'), '--match-on', axis],
      { cwd, reject: false },
    );
  const typo = await run('nod');
  expect(typo.stderr).toContain('--match-on nod: neither folder has an axis of that name');
  expect(typo.exitCode).toBe(2);
  const ambiguous = await run('cpus');
  expect(ambiguous.stderr).toMatch(/with --match-on cpus, cells \w+ and \w+ of B differ only in cpus/);
  expect(ambiguous.exitCode).toBe(2);
});

describe('compare knows hosts', () => {
  const CLI = fileURLToPath(new URL('../../../runner/cli.js', import.meta.url));
  // pool-vs-cores-b as if measured elsewhere: another CPU, kernel and image, read from the engine as run.json has it.
  function fromOtherHost() {
    const dir = join(mkdtempSync(join(tmpdir(), 'compare-host-')), 'other');
    cpSync(fixture('pool-vs-cores-b'), dir, { recursive: true });
    const info = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
    info.engines = [{ name: 'default', cpus: 2, cpu_model: 'AMD EPYC', kernel: '6.18.44-fc-v782' }];
    info.images['24'].tag = 'node-threads-lab/workload:node24-538560646d42';
    writeFileSync(join(dir, 'run.json'), JSON.stringify(info));
    return dir;
  }

  test('readHostFacts: the engines recorded, else the runner machine; the images', () => {
    const facts = readHostFacts(readResults(fixture('pool-vs-cores')).info);
    expect(facts).toEqual({
      cpu_model: 'Intel(R) Xeon(R) Processor',
      cpus: 2,
      kernel: '6.18.44-fc-v669',
      pool: null,
      node: '24.21.0',
      image: 'node-threads-lab/workload:node24-7d2d752bb61c',
    });
    const other = readHostFacts(JSON.parse(readFileSync(join(fromOtherHost(), 'run.json'), 'utf8')));
    expect(findHostDifferences(facts, other).map(({ fact }) => fact)).toEqual(['cpu_model', 'kernel', 'image']);
    // Comparing Node versions on purpose: Node.js and the image are meant to differ.
    expect(findHostDifferences({ ...facts, node: '22.1.0' }, facts, { matchOn: 'node' })).toEqual([]);
    expect(findHostDifferences({ ...facts, cpu_model: null }, other).map(({ fact }) => fact)).toEqual([
      'kernel',
      'image',
    ]);
  });

  test('two Kubernetes node pools are two hosts, even of the same hardware', () => {
    const info = readResults(fixture('pool-vs-cores')).info;
    const onPool = (pool) => readHostFacts({ ...info, kubernetes: { context: 'prod', node_pool: pool } });
    const api = onPool({ 'cloud.google.com/gke-nodepool': 'api' });
    expect(api.pool).toBe('prod: cloud.google.com/gke-nodepool=api');
    expect(findHostDifferences(api, onPool({ 'cloud.google.com/gke-nodepool': 'batch' }))).toEqual([
      { fact: 'pool', label: 'node pool', a: api.pool, b: 'prod: cloud.google.com/gke-nodepool=batch' },
    ]);
    expect(findHostDifferences(api, api)).toEqual([]);
  });

  test('the text says so first, before the table; the same host says nothing', () => {
    const { text, hosts } = compareFolders({ dirA: fixture('pool-vs-cores'), dirB: fromOtherHost() });
    expect(hosts.same).toBe(false);
    const lines = text.split('\n');
    expect(lines.slice(0, 6)).toEqual([
      'Different hosts: A and B were measured on different machines or software, so a change below may be the',
      "host's rather than yours:",
      '  CPU model  A: Intel(R) Xeon(R) Processor  B: AMD EPYC',
      '  kernel     A: 6.18.44-fc-v669  B: 6.18.44-fc-v782',
      '  image      A: node-threads-lab/workload:node24-7d2d752bb61c  B: node-threads-lab/workload:node24-538560646d42',
      '',
    ]);
    expect(lines[6]).toMatch(/^A = /);
    const same = compareFolders({ dirA: fixture('pool-vs-cores'), dirB: fixture('pool-vs-cores-b') });
    expect(same.hosts).toMatchObject({ same: true, differences: [] });
    expect(same.text).toMatch(/^A = /);
  });

  test('the gate refuses different hosts (exit 2) unless --allow-different-hosts; --json has `hosts`', async () => {
    const other = fromOtherHost();
    const refused = await execa(CLI, ['compare', fixture('pool-vs-cores'), other, '--threshold', '5%'], {
      reject: false,
    });
    expect(refused.exitCode).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(
      'were measured on different hosts (CPU model Intel(R) Xeon(R) Processor vs AMD EPYC; kernel 6.18.44-fc-v669 vs 6.18.44-fc-v782; image',
    );
    expect(refused.stderr).toContain('add --allow-different-hosts');
    const allowed = await execa(
      CLI,
      ['compare', fixture('pool-vs-cores'), other, '--threshold', '5%', '--allow-different-hosts', '--json'],
      { reject: false },
    );
    expect(allowed.exitCode).toBe(0);
    const document = JSON.parse(allowed.stdout);
    expect(document.gate).toBe('passed');
    expect(document.hosts.differences.map(({ fact }) => fact)).toEqual(['cpu_model', 'kernel', 'image']);
    expect(document.hosts.a.cpu_model).toBe('Intel(R) Xeon(R) Processor');
    expect(allowed.stderr).toMatch(/^Different hosts: /);
    // Without a gate, the comparison is shown with the warning first.
    const shown = await execa(CLI, ['compare', fixture('pool-vs-cores'), other], { reject: false });
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout).toMatch(/^Different hosts: [^]*\nA = [^]*cell {2}/);
  });

  test('the legend names the method in use, from DEFAULT_COMPARISON, and --json says which', async () => {
    const { text } = compareFolders({ dirA: fixture('pool-vs-cores'), dirB: fixture('pool-vs-cores-b') });
    expect(text).toContain(`ratio = B / A as the ${METHODS[DEFAULT_COMPARISON.method].estimates}, unpaired`);
    expect(text).not.toContain("Welch's t");
    const { stdout } = await execa(CLI, ['compare', fixture('pool-vs-cores'), fixture('pool-vs-cores-b'), '--json']);
    expect(JSON.parse(stdout).method).toEqual({
      name: DEFAULT_COMPARISON.method,
      paired: false,
      estimates: METHODS[DEFAULT_COMPARISON.method].estimates,
    });
  });
});

test('a gate never passes on missing data: a cell with fewer than 2 runs that count on a side is exit 3, named', async () => {
  // settling-busy-1: every run at cpus=2 was disturbed (the host gave them about 1 CPU of 2), so none counts.
  const CLI = fileURLToPath(new URL('../../../runner/cli.js', import.meta.url));
  const args = [CLI, 'compare', fixture('settling-race-1'), fixture('settling-busy-1'), '--threshold', '5'];
  const { stdout, exitCode } = await execa('node', args, { reject: false });
  expect(exitCode).toBe(3);
  expect(stdout).toMatch(/^gate: NOT PASSED, 8 of 16 comparisons cannot be judged /m);
  expect(stdout).toMatch(/^ {2}pbkdf2 cpus=2 uv_threadpool_size=1 wall_ms \(n 4\/0\): fewer than 2 runs that count$/m);
  expect(stdout).not.toContain('gate: passed');
  const json = await execa('node', [...args, '--json'], { reject: false });
  expect(json.exitCode).toBe(3);
  const document = JSON.parse(json.stdout);
  expect(document.gate).toBe('incomplete');
  expect(document.unjudged).toHaveLength(8);
  expect(document.unjudged.every((row) => row.n_b === 0 && row.words.startsWith('not judged'))).toBe(true);
});
