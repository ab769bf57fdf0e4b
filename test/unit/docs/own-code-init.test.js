// docs/own-code.md's `init` example, run as it is written: the files of the blocks tagged
// `<!-- init-example: file PATH -->` make a service folder, the `command` block runs there (no engine answers:
// DOCKER_HOST points nowhere), the `written` block is found, line for line, in the file init writes, and the
// `error` block is what init says of the Deployment written again as k8s/worker.yaml with `cpu: 1500x`.
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DOC = readFileSync(join(ROOT, 'docs/own-code.md'), 'utf8');
const ENV = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm_|INIT_CWD$)/i.test(name))),
  DOCKER_HOST: 'unix:///nonexistent/docker.sock',
};

/** [{ tag, text }] for each block after an `<!-- init-example: TAG -->` line, its indentation taken off. */
function readTagged() {
  return [...DOC.matchAll(/^( *)<!-- init-example: (.+?) -->\n\1```\w*\n([\s\S]*?)\n\1```/gm)].map(
    ([, indent, tag, text]) => ({
      tag,
      text: text
        .split('\n')
        .map((line) => line.slice(indent.length))
        .join('\n'),
    }),
  );
}

const examples = readTagged();
const files = examples.filter(({ tag }) => tag.startsWith('file '));
const [command] = examples.filter(({ tag }) => tag === 'command');

function writeService() {
  const dir = mkdtempSync(join(tmpdir(), 'own-code-init-'));
  for (const { tag, text } of files) {
    const file = join(dir, tag.slice('file '.length));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${text}\n`);
  }
  return dir;
}

// `node-threads-lab ARGS` as a person types it, through the checkout's bin.
const lab = (dir, line, node = []) =>
  execa('node', [...node, join(ROOT, 'runner/cli.js'), ...line.replace(/^node-threads-lab /, '').split(' ')], {
    cwd: dir,
    env: ENV,
    extendEnv: false,
    reject: false,
  });

test('the example has its files, its command, what it writes and what it refuses', () => {
  expect(files.map(({ tag }) => tag)).toEqual([
    'file package.json',
    'file src/app.js',
    'file k8s/deployment.yaml',
    'file compose.yaml',
  ]);
  expect(command.text).toBe('node-threads-lab init --http-app src/app.js');
  expect(examples.map(({ tag }) => tag)).toEqual(
    expect.arrayContaining(['written experiments.yml', 'error k8s/worker.yaml']),
  );
});

test('init writes what the page shows', async () => {
  const dir = writeService();
  const result = await lab(dir, command.text);
  expect(result.exitCode).toBe(0);
  const written = readFileSync(join(dir, 'experiments.yml'), 'utf8');
  expect(written).toContain(examples.find(({ tag }) => tag === 'written experiments.yml').text);
  // And it plans: the budgets as numbers.
  const planned = await lab(dir, 'node-threads-lab plan --json');
  expect(planned.exitCode).toBe(0);
  expect([...new Set(JSON.parse(planned.stdout).experiments[0].cells.map((cell) => cell.values.cpus))]).toEqual([1.5]);
  expect(result.stderr).toContain('init: left out compose.yaml: service api (cpus "0.5")');
});

test('a manifest with a CPU amount that is no quantity: the message the page shows, exit 2', async () => {
  const dir = writeService();
  const deployment = files.find(({ tag }) => tag === 'file k8s/deployment.yaml').text;
  writeFileSync(join(dir, 'k8s/worker.yaml'), `${deployment.replace('cpu: 1500m', 'cpu: 1500x')}\n`);
  const result = await lab(dir, command.text);
  expect(result.exitCode).toBe(2);
  expect(result.stderr.replaceAll(`${dir}/`, '')).toBe(
    examples.find(({ tag }) => tag === 'error k8s/worker.yaml').text,
  );
});

test("installed in the service's node_modules, the first line points at the schema there", async () => {
  const dir = writeService();
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'node-threads-lab'));
  // As npm's bin runs it: from the package's path in node_modules (Node would otherwise follow the link).
  const result = await execa(
    'node',
    [
      '--preserve-symlinks',
      '--preserve-symlinks-main',
      join(dir, 'node_modules/node-threads-lab/runner/cli.js'),
      'init',
      '--http-app',
      'src/app.js',
    ],
    { cwd: dir, env: ENV, extendEnv: false, reject: false },
  );
  expect(result.exitCode).toBe(0);
  expect(readFileSync(join(dir, 'experiments.yml'), 'utf8').split('\n')[0]).toBe(
    '# yaml-language-server: $schema=node_modules/node-threads-lab/runner/config/experiments.schema.json',
  );
  expect(DOC).toContain(
    '`# yaml-language-server: $schema=node_modules/node-threads-lab/runner/config/experiments.schema.json`',
  );
});
