// `node-threads-lab init` in each of its three forms, from the folder of a service, then `plan` of what it wrote.
// No engine answers here (DOCKER_HOST points nowhere), so the CPUs come from this machine, and the file says so;
// test/integration/package.test.js runs init where the engine answers.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

const CLI = fileURLToPath(new URL('../../../runner/cli.js', import.meta.url));
const ENV = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm_|INIT_CWD$)/i.test(name))),
  DOCKER_HOST: 'unix:///nonexistent/docker.sock',
};
const lab = (cwd, ...args) => execa('node', [CLI, ...args], { cwd, reject: false, env: ENV, extendEnv: false });

function serviceFolder() {
  const dir = mkdtempSync(join(tmpdir(), 'init-'));
  mkdirSync(join(dir, 'lib'));
  mkdirSync(join(dir, 'src'));
  writeFileSync(
    join(dir, 'lib', 'hash.js'),
    "import { scrypt } from 'node:crypto';\nexport const hash = () => new Promise((resolve) => scrypt('pw', 'salt', 64, resolve));\n",
  );
  writeFileSync(join(dir, 'src', 'app.js'), "export default (req, res) => res.end('ok');\n");
  writeFileSync(join(dir, 'x.pl'), 'print "1\\n";\n');
  return dir;
}

const CPUS = availableParallelism();
const FORMS = [
  [
    '--script lib/hash.js --export hash',
    ['--script', 'lib/hash.js', '--export', 'hash'],
    /file: lib\/hash\.js +#.*\n +export: hash +#/,
    ['script'],
  ],
  ['--http-app src/app.js', ['--http-app', 'src/app.js'], /file: src\/app\.js +#.*\n +export: default +#/, ['http']],
  [
    '--command "perl x.pl" --image perl:5',
    ['--command', 'perl x.pl', '--image', 'perl:5'],
    /image: "perl:5" +#.*\n +argv: \[perl, x\.pl\] +#/,
    ['command'],
  ],
];

describe.each(FORMS)('init %s', (_, args, params, workloads) => {
  const dir = serviceFolder();
  let written;

  beforeAll(async () => {
    written = await lab(dir, 'init', ...args);
  });

  test('writes experiments.yml there, saying where its CPUs come from', () => {
    expect(written.exitCode).toBe(0);
    expect(written.stdout).toContain(
      `wrote ${join(dir, 'experiments.yml')}: CPUs ${CPUS}, from os.availableParallelism() of this machine (no engine answered`,
    );
    const text = readFileSync(join(dir, 'experiments.yml'), 'utf8');
    expect(text).toMatch(new RegExp(`^# Written by \`node-threads-lab init ${args[0]} `));
    expect(text).toContain(`# CPUs: ${CPUS}, from os.availableParallelism() of this machine`);
    expect(text).toMatch(params);
    // Every key under matrix: has its comment.
    const matrix = text.split('\n').filter((line) => /^ {6}[a-z_]+: \[/.test(line));
    expect(matrix.length).toBeGreaterThanOrEqual(2);
    for (const line of matrix) expect(line).toMatch(/\] +# \w/);
  });

  test('plan of the result passes, with the cells its comment counts', async () => {
    const planned = await lab(dir, 'plan', '--json');
    expect(planned.exitCode).toBe(0);
    const {
      count,
      experiments: [experiment],
    } = JSON.parse(planned.stdout);
    const said = /# every combination is one cell: (\d+) cells × 4 = (\d+) runs/.exec(
      readFileSync(join(dir, 'experiments.yml'), 'utf8'),
    );
    expect([experiment.cells.length, count]).toEqual([Number(said[1]), Number(said[2])]);
    expect([...new Set(experiment.cells.map((cell) => cell.workload))]).toEqual(workloads);
    expect(Math.max(...experiment.cells.map((cell) => cell.values.cpus))).toBe(CPUS);
  });

  test('a second init refuses to overwrite it: exit 2, the file unchanged', async () => {
    const before = readFileSync(join(dir, 'experiments.yml'), 'utf8');
    const again = await lab(dir, 'init', ...args);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain('exists already; init never overwrites a file');
    expect(readFileSync(join(dir, 'experiments.yml'), 'utf8')).toBe(before);
  });
});

test('a module that is not there, or no code named: exit 2 and nothing written', async () => {
  const dir = serviceFolder();
  expect((await lab(dir, 'init', '--script', 'lib/nope.js')).stderr).toContain(
    `no file at ${join(dir, 'lib/nope.js')}`,
  );
  const none = await lab(dir, 'init');
  expect(none.exitCode).toBe(2);
  expect(none.stderr).toContain('init needs the code to measure');
  expect(existsSync(join(dir, 'experiments.yml'))).toBe(false);
});
