// A budget this host cannot give the server and its load generator apart is not answered as if measured cleanly
// (runner/domain/shared-loader.js, the delivery rule of runner/domain/delivery.js). http-cores-threads is the
// published cores × threads matrix (http, cpus 0.5, 1, 1.5, 2 × workers 1–4, on a 2-CPU host), run before
// loader_shared was recorded; here its rows get the placement today's runner gives them with `loader.cpuset: auto`
// (runner/plan/loader-limits.js): the loader on CPU 1 where the budget leaves a CPU spare (0.5 and 1), unpinned and
// shared at 1.5 and 2. Only that placement decides, never a measured value: the 1.5 and 2 budgets are "not measured
// here" in the words `plan` prints, unless the file asked for the loader on the server's CPUs (`loader: {cpuset:
// none}`), whose numbers are then what was asked.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { advise, judge } from '../../../runner/index.js';
import { sortCellRuns } from '../../../runner/domain/delivery.js';
import { readResults } from '../../../runner/results/read-results.js';
import { summarizeCells } from '../../../runner/report/summary.js';
import { adviseCells } from '../../../runner/verdicts/advice.js';
import { describeBudgetCpus, describeSharedBudget } from '../../../runner/domain/shared-loader.js';

const CORES = fileURLToPath(new URL('../../fixtures/results/http-cores-threads', import.meta.url));

const SHARED_WORDS = /cannot be measured cleanly on this 2-CPU host: the load generator needs a CPU of its own/;

/** The folder copied, its rows placed as `auto` places them on 2 CPUs, and the loader's cpuset as the file asked. */
function placeLoaders(loaderCpuset) {
  const dir = mkdtempSync(join(tmpdir(), 'shared-loader-'));
  cpSync(CORES, dir, { recursive: true });
  const [header, ...records] = parse(readFileSync(join(dir, 'runs.csv'), 'utf8'));
  const at = (column) => header.indexOf(column);
  const placed = records.map((record) => {
    const spare = 2 - Math.ceil(Number(record[at('cpus')])) >= 1 && loaderCpuset === 'auto';
    const row = [...record, String(!spare)];
    row[at('slot_cpuset')] = '0-1';
    row[at('loader_cpuset')] = spare ? '1' : '';
    return row;
  });
  writeFileSync(join(dir, 'runs.csv'), stringify([[...header, 'loader_shared'], ...placed]));
  const info = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
  for (const cell of info.cells) cell.params.loader = { cpus: 1, cpuset: loaderCpuset };
  info.config.params.http.loader = { cpus: 1, cpuset: loaderCpuset };
  writeFileSync(join(dir, 'run.json'), JSON.stringify(info));
  return dir;
}

describe('the rule: the placement recorded per run, and what the cell asked', () => {
  const run = (extra) => ({ status: 'ok', interference_pct: 1, seen_cpu_quota: 2, slot_cpuset: '0-1', ...extra });

  test('shared where the runner wanted the loader apart (auto, the default): not delivered, its own reason', () => {
    const { delivery } = sortCellRuns([run({ loader_shared: true }), run({ loader_shared: true })]);
    expect(delivery).toMatchObject({ delivered: false, reason: 'loader', short: false, hostCpus: 2 });
    expect(sortCellRuns([run({ loader_shared: true })], { loaderCpuset: 'auto' }).delivery.reason).toBe('loader');
    // One slot leaves slot_cpuset empty: the host's CPUs are those the unconfined server saw.
    const unslotted = run({ loader_shared: true, slot_cpuset: '', seen_available_parallelism: 2 });
    expect(sortCellRuns([unslotted]).delivery.hostCpus).toBe(2);
  });

  test('--keep-disturbed does not count it: the host lacks a CPU, it was not disturbed', () => {
    const { delivery } = sortCellRuns([run({ loader_shared: true })], { keepDisturbed: true });
    expect(delivery).toMatchObject({ delivered: false, reason: 'loader' });
  });

  test('asked for by the file (cpuset none, or a CPU list the server runs on): the numbers are what was asked', () => {
    for (const loaderCpuset of ['none', '0'])
      expect(sortCellRuns([run({ loader_shared: true })], { loaderCpuset }).delivery).toMatchObject({
        delivered: true,
        reason: null,
      });
  });

  test('a loader on a CPU of its own, or a row from before loader_shared: delivered as before', () => {
    expect(sortCellRuns([run({ loader_shared: false })]).delivery).toMatchObject({ delivered: true, reason: null });
    expect(sortCellRuns([run({})]).delivery).toMatchObject({ delivered: true, reason: null, hostCpus: null });
  });

  test('a host short of CPUs keeps its reason; the loader is said first when both', () => {
    const busy = { interference_pct: 50, disturbed: true };
    expect(sortCellRuns([run(busy)]).delivery).toMatchObject({ delivered: false, reason: 'host' });
    expect(sortCellRuns([run({ ...busy, loader_shared: true })]).delivery.reason).toBe('loader');
  });

  test("the words are plan's: the budget, the host's CPUs", () => {
    expect(describeSharedBudget(describeBudgetCpus({ cpus: 1.5 }), 2)).toBe(
      '1.5 CPUs cannot be measured cleanly on this 2-CPU host: the load generator needs a CPU of its own',
    );
    expect(describeSharedBudget(describeBudgetCpus({ cpuset: '0-1' }), null)).toBe(
      'cpuset 0-1 cannot be measured cleanly on this host: the load generator needs a CPU of its own',
    );
    expect(describeBudgetCpus({})).toBe('no cpus quota (every CPU)');
    expect(describeBudgetCpus({ cpus: 1 })).toBe('1 CPU');
  });
});

describe('http-cores-threads with the loader placed by auto', () => {
  const dir = placeLoaders('auto');
  let advice;
  beforeAll(async () => {
    advice = await advise(dir);
  });
  const answerOf = (budget) => advice.answers.find((answer) => answer.budget === budget);

  test('1.5 and 2 CPUs: not measured here, in the words plan prints, never settled, nothing more to run', () => {
    for (const cpus of [1.5, 2]) {
      const answer = answerOf(`cpus=${cpus}`);
      expect(answer).toMatchObject({ status: 'not measured', recommended: '', bound_pct: null, action: '' });
      expect(answer.words).toContain(
        `cpus=${cpus} (http, requests_per_sec, higher is better): not measured here — ${cpus} CPUs cannot be measured cleanly on this 2-CPU host: the load generator needs a CPU of its own, so no setting is recommended`,
      );
      expect(answer.words).toContain('or ask for the server with the load generator beside it: loader: {cpuset: none}');
      const table = advice.tables.find((each) => each.budget === `cpus=${cpus}`);
      for (const row of table.rows)
        expect(row[4]).toBe("not measured: the load generator shared the server's CPUs (loader_shared)");
    }
    expect(advice.settled).toBe(false);
    // A race runs no further round of them: no quieter moment gives this host another CPU.
    const results = readResults(dir);
    const answers = adviseCells(summarizeCells(results).cells, results.axes, undefined);
    for (const answer of answers.filter((each) => /cpus=(1\.5|2)$/.test(each.budget))) {
      expect(answer.delivery.reason).toBe('loader');
      expect(answer.next_round).toEqual([]);
    }
  });

  test('0.5 and 1 CPU, where the loader had a CPU of its own: answered as before', async () => {
    const before = await advise(CORES);
    for (const budget of ['cpus=0.5', 'cpus=1']) {
      expect(answerOf(budget).words).not.toMatch(SHARED_WORDS);
      expect(answerOf(budget)).toEqual(before.answers.find((answer) => answer.budget === budget));
    }
  });

  test('the claims count no run of the shared cells: one rule for every answer', async () => {
    const judged = await judge(dir);
    const shared = judged.claims.filter((row) => row.kind === 'claim' && /cpus=(1\.5|2)(?![.\d])/.test(row.where));
    expect(shared.length).toBeGreaterThan(0);
    for (const row of shared) {
      expect(row.verdict).toBe('inconclusive');
      expect(row.words).toMatch(/not judged: no run of either side counted/);
    }
    const apart = judged.claims.filter((row) => row.kind === 'claim' && /cpus=(0\.5|1)(?![.\d])/.test(row.where));
    expect(apart.length).toBeGreaterThan(0);
    for (const row of apart) expect(row.words).not.toMatch(/not judged/);
  });
});

test('the file asked for the loader beside the server (cpuset: none): every budget answered, what was asked', async () => {
  const advice = await advise(placeLoaders('none'));
  expect(advice.answers).toHaveLength(4);
  for (const answer of advice.answers) {
    expect(answer.status).not.toBe('not measured');
    expect(answer.words).not.toMatch(SHARED_WORDS);
  }
});
