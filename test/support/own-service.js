// The README's "Your own service" block, as a person types it: `npm link` in the checkout (the line commented "in
// the checkout"), every other line in a fresh service folder, through the command `npm link` put on the PATH. The
// link goes to a prefix of the test's own (npm_config_prefix), never the machine's global folder, and npm stays
// offline. Shared by test/unit/docs/own-service.test.js (link, init, plan) and the integration test that also runs.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { track } from './children.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** [{ line, inCheckout }]: the block's commands, their comments taken off. */
export function readOwnServiceBlock() {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Your own service'));
  const [, block] = /```sh\n([\s\S]*?)\n```/.exec(section);
  return block.split('\n').map((text) => {
    const [line, comment = ''] = text.split(/\s+#\s/);
    return { line: line.trim(), inCheckout: comment.startsWith('in the checkout') };
  });
}

/** A service as a person has one: an HTTP handler, and a Deployment that gives it 1 CPU and 256 MiB. */
export function makeService() {
  const dir = mkdtempSync(join(tmpdir(), 'own-service-'));
  // mkdtemp makes it 0700: the containers' user (1000) must read the mounted folder, as a person's service folder.
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'k8s'));
  writeFileSync(join(dir, 'package.json'), '{"name": "svc", "type": "module"}\n');
  writeFileSync(join(dir, 'src', 'app.js'), 'export default function hello(req, res) {\n  res.end("hello");\n}\n');
  writeFileSync(
    join(dir, 'k8s', 'deployment.yaml'),
    'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: svc\nspec:\n  template:\n    spec:\n' +
      '      containers:\n        - name: svc\n          resources:\n            limits: {cpu: 1000m, memory: 256Mi}\n',
  );
  return dir;
}

/**
 * Starts one line of the block with sh (`exec`: a signal reaches the command itself), where a person would: the
 * checkout or the service. `prefix` is where `npm link` links to, and whose bin/ is first on the PATH.
 */
export function typeLine({ line, inCheckout }, { service, prefix, env = {} }) {
  // Children of `npm test` inherit npm's variables; a person's shell has none.
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm_|INIT_CWD$)/i.test(name)));
  return track(
    execa('sh', ['-c', `exec ${line}`], {
      cwd: inCheckout ? ROOT : service,
      env: {
        ...clean,
        PATH: `${join(prefix, 'bin')}:${process.env.PATH}`,
        npm_config_prefix: prefix,
        npm_config_offline: 'true',
        npm_config_fund: 'false',
        npm_config_audit: 'false',
        ...env,
      },
      extendEnv: false,
      reject: false,
      all: true,
    }),
  );
}
