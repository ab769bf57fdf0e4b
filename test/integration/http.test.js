// The http workload on the real engine: a server container and a load-generator container per run,
// one row per run, and nothing left behind.
import { parse } from 'csv-parse/sync';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  connectTestEngine,
  createOwnRunner,
  listOwnContainers as listOwnedBy,
  watchCreated,
} from '../support/docker-helpers.js';

const { run: runCli, owners } = createOwnRunner();

const MATRIX = fileURLToPath(new URL('../fixtures/integration/http.yml', import.meta.url));
const FAULTS = fileURLToPath(new URL('../fixtures/integration/http-faults.yml', import.meta.url));
const BURST = fileURLToPath(new URL('../fixtures/integration/http-burst.yml', import.meta.url));
const LATENCY_COLUMNS = ['latency_p50_ms', 'latency_p90_ms', 'latency_p99_ms', 'latency_max_ms', 'fast_route_p99_ms'];

const readRows = (file) => parse(readFileSync(file, 'utf8'), { columns: true });

// The engine may be shared: only the containers of the runners this file started count.
const listOwnContainers = (docker) => listOwnedBy(docker, owners);

/** Created containers of this experiment, by role. */
function countByRole(events, experiment) {
  const counts = {};
  for (const event of events.filter((each) => each.Actor.Attributes['node-threads-lab.experiment'] === experiment)) {
    const role = event.Actor.Attributes['node-threads-lab.role'];
    counts[role] = (counts[role] ?? 0) + 1;
  }
  return counts;
}

describe('http: cluster {1, 2} × cpus {1, 2} with the pbkdf2 route', () => {
  let docker;
  let result;
  let rows;
  let created;
  let outDir;

  beforeAll(async () => {
    docker = await connectTestEngine();
    created = await watchCreated(docker, owners);
    outDir = mkdtempSync(join(tmpdir(), 'lab-http-'));
    result = await runCli(['run', '--config', MATRIX, '--out', outDir]);
    rows = readRows(join(outDir, 'runs.csv'));
  });

  test('every run is ok and has requests, no non-2xx, and latencies', () => {
    expect(result.all).toMatch(/4 ok, 0 not ok, of 4/);
    expect(result.exitCode).toBe(0);
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      expect(row.status).toBe('ok');
      expect(Number(row.requests_per_sec)).toBeGreaterThan(0);
      expect(Number(row.throughput_bytes_per_sec)).toBeGreaterThan(0);
      expect(row.non2xx).toBe('0');
      expect(row.errors).toBe('0');
      for (const column of LATENCY_COLUMNS) expect(Number(row[column])).toBeGreaterThan(0);
      expect(Number(row.latency_p99_ms)).toBeGreaterThanOrEqual(Number(row.latency_p50_ms));
      expect(row.event_loop_delay_mean_ms).not.toBe('');
      expect(row.loader_saturated).toMatch(/^(true|false)$/);
      // The load generator's own CPU time over the measured period: the capacity model takes it off shared CPUs.
      expect(Number(row.loader_cpu_ms)).toBeGreaterThan(0);
    }
  });

  test('server-side readings come from the server container over the measured period', () => {
    for (const row of rows) {
      expect(Number(row.seen_cpu_quota)).toBeCloseTo(Number(row.cpus), 5);
      // The measured period is `duration` (2 s), not the warm-up or the start-up.
      expect(Number(row.wall_ms)).toBeGreaterThan(1900);
      expect(Number(row.wall_ms)).toBeLessThan(2600);
      expect(Number(row.cpu_user_ms)).toBeGreaterThan(0);
      expect(Number(row.peak_rss_mb)).toBeGreaterThan(10);
      expect(row.nr_periods).not.toBe('');
      // cluster N: the primary and N children.
      expect(Number(row.peak_threads)).toBeGreaterThan(Number(row.cluster) * 7);
    }
  });

  test("the loader gets a CPU of its own where the host has one beyond the cell's budget; else it shares, and says what it took", async () => {
    const { NCPU } = await docker.info();
    const last = String(NCPU - 1);
    for (const row of rows) {
      const spare = NCPU - Number(row.cpus) >= 1;
      expect(row.loader_cpus).toBe('1');
      expect(row.loader_shared).toBe(String(!spare));
      // The CPU the loader used in the measured period, measured either way.
      expect(Number(row.loader_cpu_ms)).toBeGreaterThan(0);
      if (spare) {
        // The last CPU is the loader's; the server (its quota unchanged) runs on the others.
        expect(row.loader_cpuset).toBe(last);
        expect(row.seen_cpuset).toBe(NCPU === 2 ? '0' : `0-${NCPU - 2}`);
      } else {
        expect(row.loader_cpuset).toBe('');
      }
    }
    // The report's statistics leave disturbed runs out (busy host), and its note speaks of the runs it counts.
    const shared = rows.filter((row) => row.loader_shared === 'true' && row.disturbed !== 'true');
    const report = readFileSync(join(outDir, 'report.md'), 'utf8');
    if (shared.length > 0)
      expect(report).toMatch(/- Note: the load generator shared the server's CPUs \(loader_shared\)/);
    else expect(report).not.toMatch(/- Note: the load generator shared/);
    // A budget the loader shared although the runner wanted it apart (auto) is not answered as if measured cleanly:
    // its answer is "not measured here" in plan's words, never settled; one with a CPU to spare is answered.
    const advice = readRows(join(outDir, 'advice.csv'));
    for (const cpus of ['1', '2']) {
      const answer = advice.find((row) => row.budget === `cpus=${cpus}`);
      const crowded = rows.some((row) => row.cpus === cpus && row.loader_shared === 'true');
      if (crowded) {
        expect(answer.status).toBe('not measured');
        expect(answer.words).toContain(
          `not measured here — ${cpus} CPU${cpus === '1' ? '' : 's'} cannot be measured cleanly on this ${NCPU}-CPU host: the load generator needs a CPU of its own`,
        );
      } else expect(answer.words).not.toMatch(/cannot be measured cleanly/);
    }
  });

  test('two containers per run, both gone afterwards', async () => {
    expect(countByRole(await created.stop(), 'http')).toEqual({ server: 4, loader: 4 });
    expect(await listOwnContainers(docker)).toEqual([]);
  });
});

describe('http: a server that answers wrongly', () => {
  let docker;
  let result;
  let outDir;

  beforeAll(async () => {
    docker = await connectTestEngine();
    outDir = mkdtempSync(join(tmpdir(), 'lab-http-faults-'));
    result = await runCli(['run', '--config', FAULTS, '--out', outDir]);
  });

  test('gives a failed row that says why, and the matrix goes on', () => {
    const [wrong] = readRows(join(outDir, 'http-wrong-body', 'runs.csv'));
    expect(wrong.status).toBe('failed');
    expect(wrong.error).toMatch(
      /\[loader\] .*the server answered GET \/work with a wrong body: expected 2 bytes "ok", got .*deliberately wrong/,
    );
    expect(wrong.requests_per_sec).toBe('');
    const [next] = readRows(join(outDir, 'http-pinned', 'runs.csv'));
    expect(next.status).toBe('ok');
    expect(result.exitCode).toBe(1);
  });

  test('a server pinned by the cell gets a loader on the other CPU', () => {
    const [pinned] = readRows(join(outDir, 'http-pinned', 'runs.csv'));
    expect([pinned.cpuset, pinned.seen_cpuset, pinned.loader_cpuset, pinned.loader_cpus]).toEqual(['0', '0', '1', '1']);
    expect(Number(pinned.requests_per_sec)).toBeGreaterThan(0);
    expect(pinned.non2xx).toBe('0');
  });

  test('no container is left behind', async () => {
    expect(await listOwnContainers(docker)).toEqual([]);
  });
});

describe('http: bursts of simultaneous requests (ab -c N)', () => {
  test('times each burst until its last answer (a 1-thread pool makes the burst outlast the median request); idle sends nothing; Fastify serves the same routes', async () => {
    const docker = await connectTestEngine();
    const outDir = mkdtempSync(join(tmpdir(), 'lab-http-burst-'));
    const result = await runCli(['run', '--config', BURST, '--out', outDir]);
    expect(result.exitCode).toBe(0);
    const [row] = readRows(join(outDir, 'http-burst', 'runs.csv'));
    expect(row.status).toBe('ok');
    expect(Number(row.requests_per_sec)).toBeGreaterThan(0);
    expect([row.errors, row.non2xx, row.timeouts]).toEqual(['0', '0', '0']);
    expect(Number(row.burst_max_ms)).toBeGreaterThanOrEqual(Number(row.burst_p50_ms));
    // Served one at a time, the 4 requests of a burst wait 1, 2, 3 and 4 service times: the burst (4)
    // is about twice the median request (2); 1.3 leaves room for a noisy machine.
    expect(Number(row.burst_p50_ms)).toBeGreaterThan(1.3 * Number(row.latency_p50_ms));
    // The first answer comes after one service time, the burst ends after four.
    expect(Number(row.burst_first_p50_ms)).toBeLessThan(0.6 * Number(row.burst_p50_ms));
    // async pbkdf2 keeps the event loop free: /fast is answered in a fraction of one service time.
    expect(Number(row.burst_fast_p50_ms)).toBeGreaterThan(0);
    expect(Number(row.burst_fast_p50_ms)).toBeLessThan(Number(row.burst_first_p50_ms));

    // load: idle — no request at all; the server's event-loop delay at rest is the row's reading.
    const [idle] = readRows(join(outDir, 'http-idle', 'runs.csv'));
    expect(idle.status).toBe('ok');
    expect([idle.requests_per_sec, idle.latency_p50_ms, idle.burst_p50_ms, idle.burst_fast_p50_ms]).toEqual([
      '0',
      '',
      '',
      '',
    ]);
    expect(Number(idle.event_loop_delay_mean_ms)).toBeGreaterThan(0);

    // server: fastify — the loader checked its answers before measuring; the pool's threads show in the counts.
    const fastify = readRows(join(outDir, 'http-fastify', 'runs.csv'));
    expect(fastify.map((each) => [each.workers, each.status])).toEqual(
      expect.arrayContaining([
        ['0', 'ok'],
        ['2', 'ok'],
      ]),
    );
    for (const each of fastify)
      expect([Number(each.requests_per_sec) > 0, each.errors, each.non2xx]).toEqual([true, '0', '0']);
    expect(await listOwnContainers(docker)).toEqual([]);
  });
});

describe('http: Ctrl-C in the middle of a run', () => {
  test('stops and removes both containers of the run', async () => {
    const docker = await connectTestEngine();
    const outDir = mkdtempSync(join(tmpdir(), 'lab-http-abort-'));
    const child = runCli(['run', '--config', MATRIX, '--out', outDir]);
    // Wait until the first pair is up (both containers exist), then interrupt.
    for (let waited = 0; waited < 30_000; waited += 200) {
      const running = await listOwnContainers(docker);
      if (running.length >= 2) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect((await listOwnContainers(docker)).length).toBeGreaterThanOrEqual(2);
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(await listOwnContainers(docker)).toEqual([]);
  });
});
