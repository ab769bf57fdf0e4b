// The README's "Your own service" block as written, to its last line, on the real engine: `npm link` in the
// checkout (to a prefix of this test's own), then in a fresh service folder `node-threads-lab init --http-app
// src/app.js`, `plan`, and `run`, which a person stops with Ctrl-C once the first row is in (the matrix init wrote
// takes minutes): exit 130, whole ok rows in ./results/<name>-<UTC time>/runs.csv, the resume command said, and no
// container of its left. test/unit/docs/own-service.test.js runs the same lines up to plan without an engine.
import { parse } from 'csv-parse/sync';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { formatOwner } from '../../runner/docker/runs/owner.js';
import { connectTestEngine, listOwnContainers, waitFor } from '../support/docker-helpers.js';
import { makeService, readOwnServiceBlock, typeLine } from '../support/own-service.js';

const runsOf = (service) => {
  const [folder] = existsSync(join(service, 'results')) ? readdirSync(join(service, 'results')) : [];
  const file = folder && join(service, 'results', folder, 'runs.csv');
  return file && existsSync(file) ? { folder, rows: parse(readFileSync(file, 'utf8'), { columns: true }) } : null;
};

test('npm link, init, plan and run as written from a fresh service folder; Ctrl-C after the first row', async () => {
  const docker = await connectTestEngine();
  const prefix = mkdtempSync(join(tmpdir(), 'own-service-prefix-'));
  const service = makeService();
  const [link, init, plan, run] = readOwnServiceBlock();
  for (const line of [link, init, plan]) {
    const result = await typeLine(line, { service, prefix });
    expect([line.line, result.exitCode, result.exitCode === 0 ? '' : result.all]).toEqual([line.line, 0, '']);
  }
  const child = typeLine(run, { service, prefix });
  const owners = new Set([formatOwner(child.pid)]);
  await waitFor(() => (runsOf(service)?.rows.length ?? 0) >= 1, { timeoutMs: 180_000 });
  // Stopped while the next run's containers are up (which also shows they carry this command's owner label).
  await waitFor(async () => (await listOwnContainers(docker, owners)).length > 0);
  child.kill('SIGINT');
  const result = await child;
  expect(result.exitCode).toBe(130);
  const { folder, rows } = runsOf(service);
  // init names the experiment after the service's folder (runner/api/init.js), and run names the results after it.
  expect(folder).toMatch(new RegExp(`^${basename(service)}-\\d{8}T\\d{6}Z$`));
  expect(result.stderr).toContain(`node-threads-lab run --resume ${join(service, 'results', folder)}`);
  expect(rows.length).toBeGreaterThanOrEqual(1);
  for (const row of rows) expect([row.status, row.cpus]).toEqual(['ok', '1']);
  expect(await listOwnContainers(docker, owners)).toEqual([]);
});
