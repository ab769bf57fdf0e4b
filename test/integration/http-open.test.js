// Coordinated omission, on the real engine: a server that stalls for 1 s every 10 s, measured side by side by a closed
// loop (autocannon: the next request waits for an answer, so a stall delays only the requests already sent) and by
// the open loop at a fixed arrival rate (every request due during the stall waits for it, timed from its due time).
// The assertions are structural — the open loop's p99 is many times the closed loop's, and its seconds show the stall
// — not a timing constant.
import { parse } from 'csv-parse/sync';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectTestEngine, createOwnRunner, listOwnContainers } from '../support/docker-helpers.js';

const { run: runCli, owners } = createOwnRunner();
const CONFIG = fileURLToPath(new URL('../fixtures/integration/http-open.yml', import.meta.url));
const readCsv = (file) => parse(readFileSync(file, 'utf8'), { columns: true });

describe('a server stalling 1 s every 10 s: closed loop against open loop', () => {
  let docker;
  let result;
  let closed;
  let open;
  let openSeconds;

  beforeAll(async () => {
    docker = await connectTestEngine();
    const outDir = mkdtempSync(join(tmpdir(), 'lab-http-open-'));
    result = await runCli(['run', '--config', CONFIG, '--out', outDir]);
    if (result.exitCode !== 0) throw new Error(`the matrix failed:\n${result.all}`);
    const folder = (name) => join(outDir, name);
    [closed] = readCsv(join(folder('stall-closed'), 'runs.csv'));
    [open] = readCsv(join(folder('stall-open'), 'runs.csv'));
    openSeconds = readCsv(join(folder('stall-open'), 'tasks.csv'));
  });

  test('both runs are ok; the open one says its rate and how it kept its schedule', () => {
    expect(result.exitCode).toBe(0);
    expect([closed.status, open.status]).toEqual(['ok', 'ok']);
    expect(open).toMatchObject({ arrival_rate: '200', loader_queued: '0', errors: '0', timeouts: '0' });
    expect(open.loader_behind).toMatch(/^(true|false)$/);
    expect(Number(open.send_lag_p99_ms)).toBeGreaterThanOrEqual(0);
    expect(closed).toMatchObject({ arrival_rate: '', loader_behind: '' });
  });

  test("the open loop's p99 shows the stall the closed loop's hides: more than 10 times it", () => {
    const ratio = Number(open.latency_p99_ms) / Number(closed.latency_p99_ms);
    expect(ratio).toBeGreaterThan(10);
    // The stall is a tenth of the time: the open loop's p90 is still far below its p99, the p99.9 at or above it.
    expect(Number(open.latency_p999_ms)).toBeGreaterThanOrEqual(Number(open.latency_p99_ms));
  });

  test('second by second, the stall is in the seconds it happened, not spread over the period', () => {
    const p99s = openSeconds.filter((second) => second.requests !== '0').map((second) => Number(second.p99_ms));
    expect(p99s.length).toBeGreaterThanOrEqual(19);
    const sorted = [...p99s].sort((a, b) => a - b);
    const typical = sorted[Math.floor(sorted.length / 2)];
    // Two stalls in 20 s: at least one second, and no more than a few, many times slower than the typical second.
    const stalled = p99s.filter((p99) => p99 > 10 * typical);
    expect(stalled.length).toBeGreaterThanOrEqual(1);
    expect(stalled.length).toBeLessThanOrEqual(6);
    // The server's CPU time is there too, second by second.
    expect(openSeconds.every((second) => second.cpu_ms === '' || Number(second.cpu_ms) >= 0)).toBe(true);
  });

  test('nothing is left behind', async () => {
    expect(await listOwnContainers(docker, owners)).toEqual([]);
  });
});
