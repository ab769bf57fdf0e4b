// A budget the host did not deliver is not an answer. settling-busy-1 is the default file run while another program
// kept one CPU busy: every run at cpus=2 was disturbed (interference_pct ≈ 50: the runs got about 1 CPU of 2), and
// their medians equal the 1-CPU ones. Re-judged, the 2-CPU budgets must be "not measured here", the 1-CPU ones still
// answered — and advise, claims, the reports and --json must agree on which runs count.
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { advise, judge, report } from '../../../runner/index.js';
import { countedRuns, measureRunShare, sortCellRuns } from '../../../runner/domain/delivery.js';
import { readResults } from '../../../runner/results/read-results.js';
import { summarizeCells } from '../../../runner/report/summary.js';

const BUSY = fileURLToPath(new URL('../../fixtures/results/settling-busy-1', import.meta.url));
const QUIET = fileURLToPath(new URL('../../fixtures/results/settling-race-1', import.meta.url));

describe('a run, a cell: the share of its CPUs the host left it', () => {
  const run = (interference_pct, extra = {}) => ({
    status: 'ok',
    interference_pct,
    disturbed: interference_pct > 25,
    ...{ seen_cpu_quota: 2, seen_cpuset: '0-1', seen_available_parallelism: 2 },
    ...extra,
  });

  test('1 − interference_pct / 100, at least 0; none without a reading', () => {
    expect(measureRunShare(run(50))).toBe(0.5);
    expect(measureRunShare(run(140))).toBe(0);
    expect(measureRunShare(run(-0.4))).toBe(1);
    expect(measureRunShare({ status: 'ok' })).toBeNull();
  });

  test('a cell whose every run was disturbed was not delivered; the CPUs its runs got are said', () => {
    const { runs, disturbedRuns, delivery } = sortCellRuns([run(48), run(52), run(50)]);
    expect(runs).toEqual([]);
    expect(disturbedRuns).toHaveLength(3);
    expect(delivery).toMatchObject({ delivered: false, cpus: 2, runs: 3 });
    expect(delivery.got).toBeCloseTo(1, 10);
  });

  test('clean runs are delivered by construction; disturbed ones beside them do not count', () => {
    const { runs, delivery } = sortCellRuns([run(1), run(2), run(60)]);
    expect(runs).toHaveLength(2);
    expect(delivery.delivered).toBe(true);
    expect(delivery.got).toBeCloseTo(1.97, 10);
  });

  test('--keep-disturbed counts every ok run whatever the host gave: delivered, and short says the host gave less', () => {
    const kept = sortCellRuns([run(48), run(52)], { keepDisturbed: true });
    expect(kept.runs).toHaveLength(2);
    expect(kept.delivery).toMatchObject({ delivered: true, short: true });
    expect(countedRuns({ runs: kept.runs, delivery: kept.delivery })).toHaveLength(2);
    // Mildly disturbed runs kept by choice, whose average share is above the threshold, are not short.
    expect(sortCellRuns([run(30), run(10)], { keepDisturbed: true }).delivery.short).toBe(false);
    // The experiment's own threshold: at disturbed_above 60 a run at 50 was not disturbed at all.
    expect(sortCellRuns([run(50, { disturbed: false })], { disturbedAbove: 60 }).delivery.delivered).toBe(true);
  });

  test('no reading, or no ok run: nothing the host failed to give', () => {
    expect(sortCellRuns([{ status: 'ok' }]).delivery.delivered).toBe(true);
    expect(sortCellRuns([{ status: 'oom' }]).delivery.delivered).toBe(true);
    expect(sortCellRuns([]).delivery).toMatchObject({ delivered: true, share: null, got: null });
  });
});

describe('settling-busy-1 re-judged', () => {
  test('advise: the 2-CPU budgets are not measured here, with the CPUs the runs got; the 1-CPU ones are answered', async () => {
    const advice = await advise(BUSY);
    const byBudget = (budget, workload) =>
      advice.answers.find((row) => row.budget === budget && row.workload === workload);
    for (const workload of ['pbkdf2', 'argon2']) {
      const two = byBudget('cpus=2', workload);
      expect(two).toMatchObject({ status: 'not measured', recommended: '', bound_pct: null, cpus_asked: 2 });
      expect(two.cpus_given).toBeGreaterThan(0.9);
      expect(two.cpus_given).toBeLessThan(1.2);
      expect(two.words).toMatch(
        /: not measured here: the host gave these runs about 1(\.1)? CPUs? of 2, so no setting/,
      );
      expect(two.words).not.toMatch(/\buse\b|settled|at most/);
      const one = byBudget('cpus=1', workload);
      expect(one.status).not.toBe('not measured');
      expect(one.recommended).not.toBe('');
      expect(one.cpus_given).toBeGreaterThan(0.95);
    }
    expect(advice.settled).toBe(false);
    const table = advice.tables.find((each) => each.budget === 'cpus=2' && each.workload === 'pbkdf2');
    expect(table.status).toBe('not measured');
    expect(table.rows.every((row) => row[1] === '0' && row[3] === '—' && row[4].startsWith('not measured: its '))).toBe(
      true,
    );
  });

  test('with --keep-disturbed the runs count, by choice, and the answer says first what the host gave them', async () => {
    const advice = await advise(BUSY, { keepDisturbed: true });
    for (const row of advice.answers.filter((each) => each.budget === 'cpus=2')) {
      expect(row.counted).toBe('all');
      expect(row.words).toMatch(
        /^cpus=2 \(\w+, wall_ms, lower is better\): this answer counts its \d+ runs, disturbed ones too \(--keep-disturbed\), though the host gave them about 1(\.1)? CPUs? of 2: what follows answers for fewer CPUs than the budget; /,
      );
    }
    // Claims count the same runs as the advice.
    const judged = await judge(BUSY, undefined, { keepDisturbed: true });
    for (const row of judged.claims.filter((each) => each.kind === 'claim' && /cpus=2/.test(each.where)))
      expect(row.n_a + row.n_b).toBeGreaterThan(0);
  });

  test('claims, the summary, the report and --json agree with the advice on which runs count', async () => {
    const judged = await judge(BUSY);
    const twoCpuClaims = judged.claims.filter((row) => row.kind === 'claim' && /cpus=2/.test(row.where));
    expect(twoCpuClaims.length).toBeGreaterThan(0);
    for (const row of twoCpuClaims) {
      expect(row.verdict).toBe('inconclusive');
      expect(row.words).toMatch(/not judged: no run of either side counted/);
    }
    // Per cell: the runs the advice's table counts are the summary's n, and the steps' n.
    const results = readResults(BUSY);
    const summary = summarizeCells(results);
    const advice = await advise(BUSY);
    for (const table of advice.tables) {
      for (const [label, runs] of table.rows) {
        const pool = Number(label.split('=')[1]);
        const cell = summary.cells.find(
          (each) =>
            each.workload === table.workload &&
            `cpus=${each.values.cpus}` === table.budget &&
            each.values.uv_threadpool_size === pool,
        );
        expect(Number(runs)).toBe(countedRuns(cell).length);
        expect(Number(runs)).toBe(cell.n);
      }
    }
    const dir = mkdtempSync(join(tmpdir(), 'busy-report-'));
    cpSync(BUSY, dir, { recursive: true });
    await report(dir);
    const markdown = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(markdown).toMatch(/^### cpus=2 · pbkdf2 · ✘ not measured here$/m);
    expect(markdown).toMatch(/^### cpus=1 · pbkdf2 · (✔ settled|… open)$/m);
    expect(markdown).toContain('within this invocation on this host');
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html).toContain('<span class="badge not-measured">not measured</span> cpus=2 · pbkdf2');
    expect(html).not.toMatch(/badge holds">settled<\/span> cpus=2/);
    // The heatmaps show no value for a cell no run of which counts ("–"), under the "not measured" badge.
    const pivot = readFileSync(join(dir, 'pivot-pbkdf2-wall_ms_median-uv_threadpool_size-by-cpus.csv'), 'utf8');
    for (const line of pivot.trim().split(/\r?\n/).slice(1)) expect(line.split(',')[2]).toBe('');
    const csv = readFileSync(join(dir, 'advice.csv'), 'utf8');
    expect(csv.split(/\r?\n/)[0]).toContain(',action,bound_ratio,cpus_asked,cpus_given,words');
    expect(csv).toContain('not measured here: the host gave these runs about 1 CPU of 2');
  });

  test('a quiet folder: every budget delivered, about the CPUs asked', async () => {
    const advice = await advise(QUIET);
    for (const row of advice.answers) {
      expect(row.status).not.toBe('not measured');
      expect(row.cpus_given / row.cpus_asked).toBeGreaterThan(0.98);
    }
  });
});
