// The answer says what to change only when it buys something. settling-default-experiments is the default file's
// grid on a quiet host: at cpus=2, Node's default pool of 4 is within 5% of the best for pbkdf2 and argon2, so the
// answer is to keep it; pool 1 or 2 is no cheaper in production (an idle libuv thread costs no CPU and about no
// memory), and a setting is called cheaper only for fewer processes or measured memory a step of `within` of the
// memory limit lower.
import { fileURLToPath } from 'node:url';
import { advise } from '../../../runner/index.js';

const GRID = fileURLToPath(new URL('../../fixtures/results/settling-default-experiments', import.meta.url));
const RACE = fileURLToPath(new URL('../../fixtures/results/settling-race-1', import.meta.url));

test("Node's default within `within` of the best: keep it", async () => {
  const advice = await advise(GRID);
  for (const workload of ['pbkdf2', 'argon2']) {
    const row = advice.answers.find((answer) => answer.budget === 'cpus=2' && answer.workload === workload);
    expect(row).toMatchObject({ status: 'settled', recommended: 'uv_threadpool_size=4', action: 'keep' });
    expect(row.bound_pct).toBeLessThanOrEqual(5);
    expect(row.words).toMatch(
      new RegExp(
        `^cpus=2 \\(${workload}, wall_ms, lower is better\\): keep uv_threadpool_size=4 \\(Node's default\\) — at most [\\d.]+% slower than the best tried \\(95%\\), on \\d+ runs`,
      ),
    );
    // Nothing to deploy: the service already runs it.
    expect(row.words).not.toContain('to deploy it');
    const table = advice.tables.find((each) => each.budget === 'cpus=2' && each.workload === workload);
    expect(table.rows.find((each) => each[0] === 'uv_threadpool_size=4')[4]).toBe('keep this (settled)');
  }
});

test('the same folder, told the service runs pool 8 today: the answer keeps 8 where it is within the margin', async () => {
  const advice = await advise(GRID, { recommend: { default: { uv_threadpool_size: 8 } } });
  const row = advice.answers.find((answer) => answer.budget === 'cpus=2' && answer.workload === 'pbkdf2');
  expect(row.default).toBe('uv_threadpool_size=8');
  if (row.recommended === 'uv_threadpool_size=8') {
    expect(row.action).toBe('keep');
    expect(row.words).toContain("keep uv_threadpool_size=8 (the service's setting today)");
  } else {
    // Not within 5%: a change, and the words say why today's setting is not the answer.
    expect(row.action).toBe('change');
    expect(row.words).toMatch(
      /The service's setting today \(uv_threadpool_size=8\): (at most [\d.]+% slower than the best tried \(95%\): not shown within 5%|confidently more than 5% worse)/,
    );
  }
});

test('a change is recommended where it saves what production pays for: measured memory a step lower', async () => {
  // argon2 at cpus=1 in race-1: each pool thread hashes with 64 MiB in flight, so pool 1's peak memory is far below
  // pool 4's, and pool 1 is within 5% of the best.
  const advice = await advise(RACE);
  const row = advice.answers.find((answer) => answer.budget === 'cpus=1' && answer.workload === 'argon2');
  const table = advice.tables.find((each) => each.budget === 'cpus=1' && each.workload === 'argon2');
  expect(table.rows[0][0]).toBe('uv_threadpool_size=1');
  expect(row).toMatchObject({ status: 'settled', action: 'change', recommended: 'uv_threadpool_size=1' });
  expect(row.words).toMatch(/; the recommendation saves about \d+ MiB of peak memory; /);
});
