// Claims end to end on the real engine: a small matrix whose three claims must come out holds, refuted and
// holds-as-same, in verdicts.csv, in report.md, at the end of `npm run matrix`, and as `npm run claims` exit 1.
import { parse } from 'csv-parse/sync';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { connectTestEngine, createOwnRunner, listOwnContainers } from '../support/docker-helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CONFIG = join(ROOT, 'test/fixtures/integration/claims.yml');
const { run: runCli, owners } = createOwnRunner();

describe('claims on a real matrix', () => {
  let docker;
  let outDir;
  let result;
  let verdicts;

  beforeAll(async () => {
    docker = await connectTestEngine();
    outDir = mkdtempSync(join(tmpdir(), 'lab-claims-'));
    // Claims judged on every run, as the claims' own test wants; what disturbed runs do is interference.test.js's.
    result = await runCli(['run', '--config', CONFIG, '--out', outDir, '--keep-disturbed']);
    verdicts = parse(readFileSync(join(outDir, 'verdicts.csv'), 'utf8'), { columns: true });
  });

  const overall = (claim) => verdicts.find((row) => row.kind === 'claim-overall' && row.claim === String(claim));

  test('every run is ok', () => {
    expect(result.all).toMatch(/claims-it: (\d+) ok, 0 not ok, of \1/);
    expect(result.exitCode).toBe(0);
  });

  test('the clear effect holds in each combination, its opposite is refuted, the unused variable measures the same', () => {
    const rows = verdicts.filter((row) => row.kind === 'claim');
    expect(rows.filter((row) => row.claim === '1').map((row) => [row.where, row.verdict])).toEqual([
      ['UNUSED_SETTING=a', 'holds'],
      ['UNUSED_SETTING=b', 'holds'],
    ]);
    expect(overall(1)).toMatchObject({
      verdict: 'holds',
      axis: 'cpus',
      a: '0.1',
      b: '1',
      metric: 'wall_ms',
      family: '2',
    });
    expect(overall(2).verdict).toBe('refuted');
    expect(overall(3)).toMatchObject({ verdict: 'holds', expect: 'same within ±25%: ratio in [0.75, 1.25]' });
    for (const row of rows) {
      expect(Number(row.ratio_ci95_low)).toBeLessThanOrEqual(Number(row.ratio));
      expect(Number(row.ratio_ci95_high)).toBeGreaterThanOrEqual(Number(row.ratio));
      expect(Number(row.n_a)).toBeGreaterThanOrEqual(5);
    }
    // The automatic steps: the CPU quota is called faster in both combinations.
    expect(verdicts.filter((row) => row.kind === 'step' && row.axis === 'cpus').map((row) => row.verdict)).toEqual([
      'faster',
      'faster',
    ]);
  });

  test('the answers open report.md and are in the results on stdout', () => {
    const report = readFileSync(join(outDir, 'report.md'), 'utf8');
    expect(report.indexOf('## Answers')).toBeLessThan(report.indexOf('## Summary'));
    expect(report).toContain('**✘ refuted**');
    expect(result.stdout).toMatch(/Answers \(all in verdicts.csv[^\n]*\n {2}HOLDS: claimed: "One CPU finishes/);
    expect(result.stdout).toMatch(/REFUTED: claimed: "One CPU is barely faster/);
    expect(readFileSync(join(outDir, 'report.html'), 'utf8')).toContain('<span class="badge refuted">refuted</span>');
  });

  test('npm run claims exits 1: a claim is refuted', async () => {
    const claims = await execa('node', ['runner/cli.js', 'claims', outDir], { cwd: ROOT, reject: false });
    expect(claims.stdout).toMatch(/^REFUTED: claimed: "One CPU is barely faster than a tenth of a CPU"/m);
    expect(claims.exitCode).toBe(1);
  });

  // Not counted from the engine's events: dockerd keeps only its last 256, and on a shared engine other runners'
  // containers push ours out during a run this long.
  test('no container of this runner is left behind', async () => {
    expect(await listOwnContainers(docker, owners)).toEqual([]);
  });
});
