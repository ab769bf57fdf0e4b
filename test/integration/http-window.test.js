// The http measured period on the real engine: it opens after the warm-up's requests are done, counts its own
// responses with the CPU time of the same window, and has no /fast probe unless asked for. Then a response
// costs a 0.5-CPU server about the CPU time it costs a 2-CPU one: a fixed cost of the period (CPU time with no
// response counted for it) would weigh four times as much where responses are fewest.
import { parse } from 'csv-parse/sync';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from 'simple-statistics';
import { connectTestEngine, createOwnRunner, listOwnContainers } from '../support/docker-helpers.js';

const { run: runCli, owners } = createOwnRunner();
const CONFIG = fileURLToPath(new URL('../fixtures/integration/http-window.yml', import.meta.url));

describe('http: the measured period at 0.5 and 2 CPUs (spin route, 2 worker threads)', () => {
  let docker;
  let result;
  let rows;

  beforeAll(async () => {
    docker = await connectTestEngine();
    const outDir = mkdtempSync(join(tmpdir(), 'lab-http-window-'));
    result = await runCli(['run', '--config', CONFIG, '--out', outDir]);
    rows = parse(readFileSync(join(outDir, 'runs.csv'), 'utf8'), { columns: true });
  });

  test('every run drained the warm-up, counted its responses and ran no /fast probe', () => {
    expect(result.all).toMatch(/10 ok, 0 not ok, of 10/);
    for (const row of rows) {
      expect(row.status).toBe('ok');
      expect(Number(row.requests_served)).toBeGreaterThan(0);
      // How long the period waited for the warm-up's leftovers (up to 20 requests of 10 ms CPU each).
      expect(row.warmup_drain_ms).toMatch(/^\d+(\.\d+)?$/);
      expect([row.fast_route_p50_ms, row.fast_route_p99_ms]).toEqual(['', '']);
    }
  });

  test('CPU time per response at 0.5 CPU is within 25% of that at 2 CPUs', () => {
    // Medians of 5 runs each: CPU time is steady where wall time is not, and one disturbed run cannot move a median.
    // The ratio is not 1: it read 1.04-1.10 in nine runs on a quiet host (2026-11-28) and 1.14 in CI beside other
    // suites, a cost of the 0.5-CPU quota itself. 1.25 still fails a fixed cost of about 15% of the 0.5-CPU budget
    // (75 ms of CPU a second with no response to show for it); the /fast probe, too small for a ratio to see, is
    // checked by its empty columns above.
    const perResponse = (cpus) =>
      median(
        rows.filter((row) => row.cpus === cpus).map((row) => Number(row.cpu_total_ms) / Number(row.requests_served)),
      );
    const ratio = perResponse('0.5') / perResponse('2');
    process.stderr.write(
      `http-window: CPU ms per response, 0.5 CPU ${perResponse('0.5').toFixed(2)}, 2 CPUs ${perResponse('2').toFixed(2)}, ratio ${ratio.toFixed(3)}\n`,
    );
    expect(ratio).toBeGreaterThan(0.9);
    expect(ratio).toBeLessThan(1.25);
  });

  test('no container is left behind', async () => {
    expect(await listOwnContainers(docker, owners)).toEqual([]);
  });
});
