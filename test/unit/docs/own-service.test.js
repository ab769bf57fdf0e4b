// The README's "Your own service" commands work as written from a fresh service folder: `npm link` in the checkout
// puts `node-threads-lab` on the PATH (no registry: the name is not published), then `init` and `plan` run there.
// No engine answers (DOCKER_HOST points nowhere): init counts this machine's CPUs, plan needs none. The block's
// last line, `run`, is run as written on the real engine by test/integration/own-service.test.js.
import { existsSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeService, readOwnServiceBlock, ROOT, typeLine } from '../../support/own-service.js';

const NO_ENGINE = { DOCKER_HOST: 'unix:///nonexistent/docker.sock' };

test('the block: npm link in the checkout, then init, plan and run in the service, each a bare node-threads-lab', () => {
  expect(readOwnServiceBlock()).toEqual([
    { line: 'npm link', inCheckout: true },
    { line: 'node-threads-lab init --http-app src/app.js', inCheckout: false },
    { line: 'node-threads-lab plan', inCheckout: false },
    { line: 'node-threads-lab run', inCheckout: false },
  ]);
});

test('npm link, then init and plan as written, in a fresh service folder', async () => {
  const [link, init, plan] = readOwnServiceBlock();
  const prefix = mkdtempSync(join(tmpdir(), 'own-service-prefix-'));
  const service = makeService();
  const linked = await typeLine(link, { service, prefix });
  expect([linked.exitCode, linked.exitCode === 0 ? '' : linked.all]).toEqual([0, '']);
  expect(realpathSync(join(prefix, 'bin', 'node-threads-lab'))).toBe(join(ROOT, 'runner', 'cli.js'));

  const written = await typeLine(init, { service, prefix, env: NO_ENGINE });
  expect([written.exitCode, written.stdout]).toEqual([
    0,
    `wrote ${join(service, 'experiments.yml')}: CPUs 1, from k8s/deployment.yaml; memory 256m; request GET / ` +
      '(not sent yet: no engine answered; `run` sends it before any measured run)\n' +
      'next: node-threads-lab plan, then node-threads-lab run',
  ]);
  expect(readFileSync(join(service, 'experiments.yml'), 'utf8')).toContain('k8s/deployment.yaml: Deployment/svc');

  const planned = await typeLine(plan, { service, prefix, env: NO_ENGINE });
  expect(planned.exitCode).toBe(0);
  expect(planned.stdout).toMatch(/^[\w-]+: 1 cell × \d+ runs = \d+ runs/m);
  expect(planned.stdout).toMatch(/^ {2}request: GET \/ to src\/app\.js/m);
  expect(existsSync(join(service, 'results'))).toBe(false);
});
