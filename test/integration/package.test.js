// The package as a person gets it: `npm pack`, `npm install -g --prefix` of the tarball (the registry is reached for
// the runner's packages and, by postinstall, for the workload image's), then from an empty folder with its own
// experiments.yml: init, plan, a real matrix whose workload image is built from the installed files, the API
// imported by its name (docs/api.md's run() example), and report, claims and compare with paths relative to that
// folder. Only this test's containers are counted (owner labels).
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { formatOwner } from '../../runner/docker/runs/owner.js';
import { track } from '../support/children.js';
import { readApiExamples } from '../support/doc-examples.js';
import { connectTestEngine, listOwnContainers, watchCreated } from '../support/docker-helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TINY = join(ROOT, 'test/fixtures/integration/tiny.yml');
// Children of `npm test` inherit npm's variables (INIT_CWD, npm_config_*); a person's shell has none.
const ENV = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm_|INIT_CWD$)/i.test(name)));
const owners = new Set();

let docker;
let base;
let packed;
let installed;
let bin;
let service;
const builtTags = [];

/** A process of the installed package, its owner label remembered while it lives. */
function start(file, args, cwd) {
  const child = track(execa(file, args, { cwd, env: ENV, extendEnv: false, reject: false, all: true }));
  owners.add(formatOwner(child.pid));
  return child;
}

beforeAll(async () => {
  docker = await connectTestEngine();
  base = mkdtempSync(join(tmpdir(), 'lab-package-'));
  const pack = await execa('npm', ['pack', '--json', '--pack-destination', base], {
    cwd: ROOT,
    env: ENV,
    extendEnv: false,
  });
  [packed] = JSON.parse(pack.stdout);
  const prefix = join(base, 'prefix');
  const install = await execa(
    'npm',
    ['install', '-g', '--prefix', prefix, join(base, packed.filename), '--no-fund', '--no-audit'],
    { env: ENV, extendEnv: false, all: true, reject: false },
  );
  if (install.exitCode !== 0) throw new Error(`npm install -g of the tarball failed:\n${install.all}`);
  installed = join(prefix, 'lib', 'node_modules', 'node-threads-lab');
  bin = join(prefix, 'bin', 'node-threads-lab');
  service = join(base, 'service');
  mkdirSync(service);
  cpSync(TINY, join(service, 'experiments.yml'));
});

afterAll(async () => {
  for (const tag of builtTags)
    await docker
      .getImage(tag)
      .remove()
      .catch(() => {});
  if (base) rmSync(base, { recursive: true, force: true });
});

// The evidence folders stay in the repository: the pages that cite them are shipped, their runs are not.
const EVIDENCE = ['docs/settling/', 'docs/statistics/', 'docs/interference/', 'docs/precision/'];
const isEvidence = (file) =>
  EVIDENCE.some((folder) => file.startsWith(folder)) ||
  // docs/http/ holds the capacity search's folder of runs; docs/http.md cites it.
  (file.startsWith('docs/http/') && file.split('/').length > 3) ||
  (file.startsWith('docs/findings/') && !file.startsWith('docs/findings/charts/') && file.split('/').length > 3) ||
  // docs/model-check/ ships its README, not its folders of runs.
  (file.startsWith('docs/model-check/') && file.split('/').length > 3);

test('the tarball holds the runner, the workload image, the docs without the evidence folders, the examples, the licence', async () => {
  const { stdout } = await execa(
    'git',
    [
      'ls-files',
      'runner',
      'images/workload',
      'Dockerfile',
      'scripts/install-workload-deps.js',
      'README.md',
      'LICENSE',
      'package.json',
      'docs',
      'examples',
      'published-experiments.yml',
    ],
    { cwd: ROOT },
  );
  const expected = stdout.split('\n').filter((file) => !isEvidence(file));
  expect(packed.files.map((file) => file.path).sort()).toEqual(expected.sort());
  // Small: the docs' pages and charts, not their folders of runs (the README's screenshot is 287 KB of it). The list
  // above is the check that no folder of runs is shipped; this one catches a large file: 1.0 MB on 2026-11-28.
  expect(packed.size).toBeLessThan(1_100_000);
  expect(JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).license).toBe('MIT');
  expect(readFileSync(join(installed, 'LICENSE'), 'utf8')).toMatch(
    /^MIT License\n\nCopyright \(c\) 2026 node-threads-lab contributors\n/,
  );
});

test('every pointer into docs/ the tool prints, and every link of the README and the docs, resolves inside the package', async () => {
  const names = ['run', 'plan', 'report', 'claims', 'advise', 'compare', 'init', 'images'];
  const helps = await Promise.all(
    [['--help'], ...names.map((name) => [name, '--help'])].map((args) => start(bin, args, base)),
  );
  const init = join(base, 'pointers');
  mkdirSync(init);
  writeFileSync(join(init, 'hash.js'), 'export default () => 1;\n');
  expectOk(await start(bin, ['init', '--script', 'hash.js'], init));
  const printed = [
    ...helps.map((help) => help.stdout),
    readFileSync(join(init, 'experiments.yml'), 'utf8'),
    readFileSync(join(installed, 'runner/config/experiments.schema.json'), 'utf8'),
  ].join('\n');
  const pointers = [
    ...new Set([...printed.matchAll(/\b((?:docs|examples)\/[\w./-]*[\w/])/g)].map((match) => match[1])),
  ];
  expect(pointers).toEqual(expect.arrayContaining(['docs/cli.md', 'docs/experiments.md']));
  expect(pointers.filter((pointer) => !existsSync(join(installed, pointer)))).toEqual([]);

  // Relative links of the shipped pages: each file is in the package, or in an evidence folder or a maintainer's
  // script that stays in the repository.
  const pages = [
    'README.md',
    ...readdirSync(join(installed, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];
  const missing = pages.flatMap((page) =>
    [...readFileSync(join(installed, page), 'utf8').matchAll(/\]\(([^)\s]+)\)/g)]
      .map((match) => match[1].split('#')[0])
      .filter((link) => link && !/^[a-z]+:/.test(link))
      .map((link) => join(page, '..', link))
      .filter((file) => !existsSync(join(installed, file)))
      .map((file) => ({ page, file })),
  );
  expect(missing.filter(({ file }) => !isEvidence(`${file}/`) && !file.startsWith('scripts/'))).toEqual([]);
});

test("from an empty folder: plan reads its experiments.yml; init writes one with the engine's CPUs", async () => {
  const planned = await start(bin, ['plan'], service);
  expectOk(planned);
  expect(planned.stdout.trim().split('\n').at(-1)).toMatch(/^2 runs\b/);
  const other = join(base, 'other-service');
  mkdirSync(other);
  writeFileSync(join(other, 'hash.js'), 'export default () => 1;\n');
  const init = await start(bin, ['init', '--script', 'hash.js'], other);
  expectOk(init);
  expect(readFileSync(join(other, 'experiments.yml'), 'utf8')).toMatch(
    /^# CPUs: \d+, from docker info of the engine at /m,
  );
  expectOk(await start(bin, ['plan'], other));
});

test('run builds the workload image from the installed package and writes ./results/', async () => {
  // A file only this install has makes the image's content hash new: the image is built from these installed files,
  // not found on the engine as a checkout built it.
  writeFileSync(join(installed, 'images', 'workload', '.package-test'), `${base}\n`);
  const created = await watchCreated(docker, owners);
  const result = await start(bin, ['run'], service);
  const built = /build: building (node-threads-lab\/workload:\S+) from /.exec(result.all)?.[1];
  if (built) builtTags.push(built);
  expectOk(result);
  expect(result.all).toMatch(/tiny: 2 ok, 0 not ok, of 2/);
  expect(built).toEqual(expect.stringMatching(/^node-threads-lab\/workload:node\d+-/));
  const info = JSON.parse(readFileSync(join(readResultsFolder(), 'run.json'), 'utf8'));
  expect(Object.values(info.images).map((image) => image.tag)).toEqual([built]);
  expect(info.project).toEqual({
    git_revision: null,
    git_dirty: null,
    version: JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version,
  });
  expect(existsSync(join(installed, 'images', 'workload', 'node_modules', 'argon2', 'package.json'))).toBe(true);
  expect(await created.count()).toBe(2);
  expect(await listOwnContainers(docker, owners)).toEqual([]);
});

test("the API by its name from the installed package: plan, and docs/api.md's run() example", async () => {
  mkdirSync(join(service, 'node_modules'), { recursive: true });
  symlinkSync(installed, join(service, 'node_modules', 'node-threads-lab'));
  const planned = await start(
    'node',
    [
      '--input-type=module',
      '-e',
      "import('node-threads-lab').then((m) => m.plan('experiments.yml')).then((p) => console.log(p.count))",
    ],
    service,
  );
  expect(planned.stdout).toBe('2');
  const [, example] = readApiExamples();
  const result = await start('node', ['--input-type=module', '-e', example], service);
  expectOk(result);
  expect(result.stdout.split('\n')).toEqual([
    '2 runs to do',
    expect.stringMatching(/^run 1\/2: ok, wall [\d.]+ ms$/),
    expect.stringMatching(/^run 2\/2: ok, wall [\d.]+ ms$/),
    `tiny: 2 ok of 2 → ${join(service, 'results', 'api-example')}`,
    'finished all ok',
  ]);
  expect(await listOwnContainers(docker, owners)).toEqual([]);
});

test('report, claims and compare from that folder, with paths relative to it', async () => {
  const folder = readResultsFolder().slice(service.length + 1);
  const reported = await start(bin, ['report', folder], service);
  expectOk(reported);
  expect(reported.stdout).toContain(`wrote ${join(service, folder, 'results.json')}`);
  const claims = await start(bin, ['claims', folder, '--json'], service);
  expectOk(claims);
  expect(JSON.parse(claims.stdout)).toMatchObject({ dir: join(service, folder), experiment: 'tiny', exit_code: 0 });
  const compared = await start(
    bin,
    ['compare', folder, 'results/api-example', '--json', '--out', 'compare.csv'],
    service,
  );
  expectOk(compared);
  expect(JSON.parse(compared.stdout)).toMatchObject({
    b: join(service, 'results', 'api-example'),
    file: join(service, 'compare.csv'),
    rows: [expect.objectContaining({ metric: 'wall_ms', n_a: 2, n_b: 2 })],
  });
});

/** Exit 0, or a failure that shows what the command printed. */
function expectOk(result) {
  // The output is the received value, so a failure prints it.
  if (result.exitCode !== 0) expect(result.all).toBe(`(exit 0; it exited ${result.exitCode})`);
}

function readResultsFolder() {
  const folders = readdirSync(join(service, 'results')).filter((name) => name.startsWith('tiny-'));
  expect(folders).toHaveLength(1);
  return join(service, 'results', folders[0]);
}
