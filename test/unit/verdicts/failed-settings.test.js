// A setting that ran out of memory (its pod's limit, from init) is listed as failed and never recommended: a cell of
// only oom rows has nothing to compare, one oom among ok runs would be a pod killed now and then in production.
import { adviseCells } from '../../../runner/verdicts/advice.js';
import { countStatuses } from '../../../runner/cells/cell.js';
import { judgeFailures } from '../../../runner/verdicts/failed-settings.js';
import { normalizeRecommend } from '../../../runner/config/check-recommend.js';
import { formatAnswer } from '../../../runner/report/advice.js';
import { summarizeCells } from '../../../runner/report/summary.js';

const AXES = ['workload', 'cpus', 'cluster'];

// Rows of an http cell at 1 CPU with `cluster` processes: `ok` requests-per-second values, then `oom` failed runs.
function rows(cluster, ok, oom = 0) {
  const cell = `c${cluster}`;
  const base = { experiment: 'e', cell, workload: 'http', cpus: 1, cluster, warmup: false, disturbed: false };
  return [
    ...ok.map((value, index) => ({ ...base, repetition: index + 1, status: 'ok', requests_per_sec: value })),
    ...Array.from({ length: oom }, (_, index) => ({
      ...base,
      repetition: ok.length + index + 1,
      status: 'oom',
      requests_per_sec: null,
    })),
  ];
}

function advise(runs) {
  const cells = [...new Set(runs.map((run) => run.cell))].map((cell) => ({
    cell,
    values: { workload: 'http', cpus: 1, cluster: runs.find((run) => run.cell === cell).cluster },
  }));
  const summary = summarizeCells({ runs, info: { experiment: 'e', cells }, axes: AXES });
  return adviseCells(summary.cells, AXES, normalizeRecommend({}));
}

test('statuses of the runs that are not warm-ups', () => {
  expect(countStatuses([...rows(0, [1, 2], 1), { status: 'ok', warmup: true }])).toEqual({ ok: 2, oom: 1 });
  expect(judgeFailures({ cell: 'c0', statuses: { ok: 3 } }, 'cluster=0')).toBeNull();
  expect(judgeFailures({ cell: 'c4', statuses: { oom: 3 } }, 'cluster=4').why).toBe('failed: out of memory');
  expect(judgeFailures({ cell: 'c2', statuses: { ok: 2, oom: 1 } }, 'cluster=2').why).toBe(
    'failed: out of memory in 1 of 3 runs',
  );
});

test('the fastest setting only ran out of memory: failed, not recommended; the rest judged without it', () => {
  const [answer] = advise([
    ...rows(0, [1000, 1010, 990, 1005]),
    ...rows(2, [1500, 1510, 1490, 1495]),
    ...rows(4, [], 4),
  ]);
  expect(answer.recommended.label).toBe('cluster=2');
  expect(answer.eliminated.map(({ label, state, reason }) => [label, state, reason])).toEqual([
    ['cluster=0', 'eliminated', 'confidently more than 5% worse than cluster=2'],
    ['cluster=4', 'failed', 'failed: out of memory'],
  ]);
  expect(formatAnswer(answer)).toContain('cluster=4: failed: out of memory');
});

test('a setting with the best runs but one out of memory is not recommended either', () => {
  const [answer] = advise([...rows(0, [1000, 1010, 990, 1005]), ...rows(2, [1500, 1510, 1490], 1)]);
  expect(answer.recommended.label).toBe('cluster=0');
  expect(answer.eliminated.map(({ label, reason }) => [label, reason])).toEqual([
    ['cluster=2', 'failed: out of memory in 1 of 4 runs'],
  ]);
});

test('every setting out of memory: no recommendation, and the reason', () => {
  const [answer] = advise([...rows(0, [], 2), ...rows(2, [], 2)]);
  expect([answer.recommended, answer.status]).toEqual([null, 'open']);
  expect(formatAnswer(answer)).toBe(
    'cpus=1 (http, requests_per_sec, higher is better): no recommendation — every setting failed: out of memory (cluster=0, cluster=2).',
  );
});
