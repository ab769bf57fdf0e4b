// The runner leaves as soon as its work is done: a timer left pending (the output-drain bound once
// was) kept the process idle for 5 s after its last line, in every matrix and every test.
// A functional check with a wide bound; the precise figures are `npm run bench`'s.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { timeCommand } from '../../scripts/lib/time-cli.js';
import { connectTestEngine, listProjectContainers } from '../support/docker-helpers.js';

const CLI = fileURLToPath(new URL('../../runner/cli.js', import.meta.url));
const TINY = fileURLToPath(new URL('../fixtures/integration/tiny.yml', import.meta.url));
const LINGER_BOUND_MS = 1000;

test('a finished matrix exits within a second of its last line, every run written', async () => {
  const docker = await connectTestEngine();
  const outDir = mkdtempSync(join(tmpdir(), 'lab-exit-'));
  const timed = await timeCommand([process.execPath, CLI, 'run', '--config', TINY, '--out', outDir], { docker });
  expect(timed.lines.join('\n')).toMatch(/tiny: 2 ok, 0 not ok, of 2/);
  expect(timed.exitCode).toBe(0);
  expect(readFileSync(join(outDir, 'runs.csv'), 'utf8').trim().split('\n')).toHaveLength(3);
  expect(timed.startupMs).toBeGreaterThan(0);
  expect(timed.lingerMs).toBeLessThan(LINGER_BOUND_MS);
  // Only this runner's containers: other tests may share the engine.
  const own = (await listProjectContainers(docker)).filter(
    (info) => info.Labels['node-threads-lab.owner'] === timed.owner,
  );
  expect(own).toEqual([]);
});
