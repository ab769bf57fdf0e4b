// `node-threads-lab init` in each of its three forms, from the folder of a service, then `plan` of what it wrote.
// No engine answers here (DOCKER_HOST points nowhere), so the CPUs come from this machine, and the file says so;
// test/integration/package.test.js runs init where the engine answers.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { SCHEMA_FILE } from '../../../runner/config/schema.js';

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
    // Editors complete keys from the schema the first line names (yaml-language-server), here the checkout's.
    expect(text.split('\n')[0]).toBe(`# yaml-language-server: $schema=${SCHEMA_FILE}`);
    expect(text).toMatch(new RegExp(`^# Written by \`node-threads-lab init ${args[0]} `, 'm'));
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
    const said = /# every combination is one cell: (\d+) cells × \d+ = (\d+) runs to start, at most (\d+) in all/.exec(
      readFileSync(join(dir, 'experiments.yml'), 'utf8'),
    );
    expect([experiment.cells.length, count]).toEqual([Number(said[1]), Number(said[2])]);
    expect(count + JSON.parse(planned.stdout).up_to_more).toBeLessThanOrEqual(Number(said[3]));
    expect([...new Set(experiment.cells.map((cell) => cell.workload))]).toEqual(workloads);
    expect(Math.max(...experiment.cells.map((cell) => cell.values.cpus))).toBe(CPUS);
  });

  test('a second init refuses to overwrite it: exit 2, the file unchanged; with --force it writes it again', async () => {
    const before = readFileSync(join(dir, 'experiments.yml'), 'utf8');
    const again = await lab(dir, 'init', ...args);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain('exists already; init wrote it, and overwrites it only with --force');
    expect(readFileSync(join(dir, 'experiments.yml'), 'utf8')).toBe(before);
    const forced = await lab(dir, 'init', ...args, '--force');
    expect(forced.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'experiments.yml'), 'utf8').replace(/--force/g, '')).toMatch(/^# Written by/m);
    // Never over a file init did not write.
    writeFileSync(join(dir, 'mine.yml'), 'experiments: {}\n');
    const theirs = await lab(dir, 'init', ...args, '--force', '--config', 'mine.yml');
    expect(theirs.exitCode).toBe(2);
    expect(theirs.stderr).toContain('init never overwrites a file it did not write');
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

describe('your traffic and your SLO: --rate, --slo-p99', () => {
  test('--rate measures at that rate, open-loop, and advises on p99', async () => {
    const dir = serviceFolder();
    const written = await lab(dir, 'init', '--http-app', 'src/app.js', '--cpus', '1', '--rate', '200');
    expect(written.exitCode).toBe(0);
    const text = readFileSync(join(dir, 'experiments.yml'), 'utf8');
    expect(text).toMatch(/\n {8}load: open +#.*\n {8}open: \{rate: 200\} +# req\/s: your traffic/);
    expect(text).toMatch(/\n {4}recommend: \{metric: latency_p99_ms\} +#/);
    expect(text).not.toMatch(/connections:/);
    const plan = await lab(dir, 'plan');
    expect(plan.exitCode).toBe(0);
    expect(plan.stdout).toContain('load: open loop: 200 req/s, Poisson arrivals');
    expect(plan.stdout).toContain('on latency_p99_ms (lower is better)');
  });

  test('--slo-p99 writes the capacity search, from --rate or 100 req/s', async () => {
    const dir = serviceFolder();
    expect((await lab(dir, 'init', '--http-app', 'src/app.js', '--cpus', '1', '--slo-p99', '50')).exitCode).toBe(0);
    const text = readFileSync(join(dir, 'experiments.yml'), 'utf8');
    expect(text).toMatch(/\n {4}repetitions: 1 +#/);
    expect(text).toMatch(/\n {4}slo: \{p99_ms: 50\} +#/);
    expect(text).toMatch(/\n {8}open: \{rate: 100\} +# req\/s the capacity search starts from/);
    const plan = await lab(dir, 'plan');
    expect(plan.exitCode).toBe(0);
    expect(plan.stdout).toContain('capacity search: per cell the most req/s within p99 ≤ 50 ms');
  });

  test('a rate that is not a positive number, or a rate for a function: exit 2, nothing written', async () => {
    const dir = serviceFolder();
    const bad = await lab(dir, 'init', '--http-app', 'src/app.js', '--cpus', '1', '--rate', 'fast');
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--rate: expected a positive number, found "fast"');
    const script = await lab(dir, 'init', '--script', 'lib/hash.js', '--export', 'hash', '--slo-p99', '50');
    expect(script.exitCode).toBe(2);
    expect(script.stderr).toContain('--slo-p99 goes with --http-app or --start');
    expect(existsSync(join(dir, 'experiments.yml'))).toBe(false);
  });
});

test("--start: a count the code falls back to when unset is today's setting (recommend.default), and plan takes it", async () => {
  const dir = serviceFolder();
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ type: 'module', scripts: { start: 'node src/server.js' } }),
  );
  writeFileSync(
    join(dir, 'src', 'server.js'),
    [
      "import cluster from 'node:cluster';",
      "import { createServer } from 'node:http';",
      'const workers = Number(process.env.WEB_CONCURRENCY ?? 1);',
      'if (cluster.isPrimary && workers > 1) for (let i = 0; i < workers; i++) cluster.fork();',
      "else createServer((req, res) => res.end('ok')).listen(Number(process.env.PORT ?? 3000));",
      '',
    ].join('\n'),
  );
  const written = await lab(dir, 'init', '--start', '--cpus', '1');
  expect(written.exitCode).toBe(0);
  const text = readFileSync(join(dir, 'experiments.yml'), 'utf8');
  expect(text).toMatch(/\n {6}WEB_CONCURRENCY: \["1", "2"\] +#/);
  expect(text).toMatch(
    /\n {4}recommend: \{default: \{WEB_CONCURRENCY: "1"\}\} +# today's setting, kept if within the margin: WEB_CONCURRENCY unset, src\/server\.js:3 takes 1/,
  );
  const plan = await lab(dir, 'plan');
  expect(plan.exitCode).toBe(0);
});

describe('a service with its deployment files', () => {
  const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  template:
    spec:
      containers:
        - name: api
          resources:
            limits: {cpu: 1500m, memory: 512Mi}
`;
  const HANDLER = `import { pbkdf2 } from 'node:crypto';

export default function handler(req, res) {
  pbkdf2('secret', 'salt', 1000, 32, 'sha256', (error, key) => res.end(key.toString('hex')));
}
`;

  function deployedService() {
    const dir = mkdtempSync(join(tmpdir(), 'init-deployed-'));
    mkdirSync(join(dir, 'src'));
    mkdirSync(join(dir, 'k8s'));
    writeFileSync(join(dir, 'package.json'), '{"name": "api", "type": "module"}\n');
    writeFileSync(join(dir, 'src', 'app.js'), HANDLER);
    writeFileSync(join(dir, 'k8s', 'deployment.yaml'), DEPLOYMENT);
    writeFileSync(join(dir, 'compose.yaml'), 'services:\n  api:\n    build: .\n    cpus: "0.5"\n');
    return dir;
  }

  test('init --http-app writes the budget of the Deployment (the Compose file said on stderr), with its source, the memory limit and the pool axis', async () => {
    const dir = deployedService();
    const written = await lab(dir, 'init', '--http-app', 'src/app.js');
    expect(written.exitCode).toBe(0);
    expect(written.stdout).toContain(
      `wrote ${join(dir, 'experiments.yml')}: CPUs 1.5, from k8s/deployment.yaml; memory 512m`,
    );
    expect(written.stderr).toContain(
      'init: left out compose.yaml: service api (cpus "0.5"): a Compose file beside Kubernetes manifests is taken for development, not production; to measure its budgets too: init --from compose.yaml --from k8s/deployment.yaml',
    );
    const text = readFileSync(join(dir, 'experiments.yml'), 'utf8');
    expect(text).toMatch(/^ {6}cpus: +# CPU quota of the server .*the limit of the container that serves your app:$/m);
    expect(text).toMatch(
      /^ {8}- 1\.5 +# k8s\/deployment\.yaml: Deployment\/api, container api \(limits\.cpu 1500m, line 11\)$/m,
    );
    expect(text).toMatch(
      /^ {4}memory: 512m +# the memory limit of the container that serves your app, k8s\/deployment\.yaml: Deployment\/api, container api \(limits\.memory 512Mi, line 11\)/m,
    );
    // No engine answered: the request is GET /, said to be unread and sent before the first run.
    expect(text).toMatch(/^ {10}method: GET +# .*your app's routes were not read: no engine answered/m);
    expect(text).toMatch(/^ {6}uv_threadpool_size: \[1, 2, 4\] +# libuv pool .*\n +# +src\/app\.js:4 crypto\.pbkdf2$/m);
    const planned = await lab(dir, 'plan', '--json');
    expect(planned.exitCode).toBe(0);
    const [experiment] = JSON.parse(planned.stdout).experiments;
    expect([...new Set(experiment.cells.map((cell) => cell.values.cpus))]).toEqual([1.5]);
    expect([...new Set(experiment.cells.map((cell) => cell.values.uv_threadpool_size))]).toEqual([1, 2, 4]);
    // Whether the http load generator shares the CPUs depends on this machine's count (plan-warnings.js): not this
    // test's subject.
    const warnings = JSON.parse(planned.stdout).warnings.filter(
      (warning) => !warning.message.includes('cannot be measured cleanly on this'),
    );
    expect(warnings).toEqual([]);
  });

  test('--from names the files instead (more than once); --cpus names the budgets', async () => {
    const dir = deployedService();
    const only = await lab(
      dir,
      'init',
      '--http-app',
      'src/app.js',
      '--from',
      'k8s/deployment.yaml',
      '--config',
      'from.yml',
    );
    expect(only.exitCode).toBe(0);
    expect(only.stdout).toContain('CPUs 1.5, from k8s/deployment.yaml; memory 512m');
    const both = await lab(
      dir,
      'init',
      '--http-app',
      'src/app.js',
      '--from',
      'compose.yaml',
      '--from',
      'k8s/deployment.yaml',
      '--config',
      'both.yml',
    );
    expect(both.stdout).toContain('CPUs 0.5, 1.5, from compose.yaml, k8s/deployment.yaml; memory 512m');
    const given = await lab(dir, 'init', '--http-app', 'src/app.js', '--cpus', '1.5,2', '--config', 'given.yml');
    if (CPUS >= 2) {
      expect(given.exitCode).toBe(0);
      expect(given.stdout).toContain('CPUs 1.5, 2, from --cpus');
      expect(readFileSync(join(dir, 'given.yml'), 'utf8')).toMatch(
        /^ {6}cpus: \[1\.5, 2\] +# .*the budgets given with --cpus$/m,
      );
      expect(readFileSync(join(dir, 'given.yml'), 'utf8')).not.toContain('memory:');
    } else {
      expect(given.exitCode).toBe(2);
      expect(given.stderr).toContain(`--cpus: 2 is more than the ${CPUS} CPUs of this engine`);
    }
    const quantities = await lab(
      dir,
      'init',
      '--http-app',
      'src/app.js',
      '--cpus',
      '500m',
      '--cpus',
      '1',
      '--config',
      'quantities.yml',
    );
    expect(quantities.stdout).toContain('CPUs 0.5, 1, from --cpus');
    // Budgets given and a file named: the budgets are those given, the memory limit the file's.
    const memory = await lab(
      dir,
      'init',
      '--http-app',
      'src/app.js',
      '--cpus',
      '1',
      '--from',
      'k8s/deployment.yaml',
      '--config',
      'memory.yml',
    );
    expect(memory.stdout).toContain('CPUs 1, from --cpus; memory 512m');
    const bad = await lab(dir, 'init', '--http-app', 'src/app.js', '--cpus', '1500x', '--config', 'bad.yml');
    expect([bad.exitCode, bad.stderr]).toEqual([
      2,
      '--cpus: "1500x" is not a CPU amount\n  numbers of CPUs or Kubernetes CPU quantities, comma-separated: --cpus 1.5,2 or --cpus 500m,1500m',
    ]);
    expect(existsSync(join(dir, 'bad.yml'))).toBe(false);
  });

  test('a manifest init cannot read: exit 2 with its file and position, nothing written; a Helm template: a warning', async () => {
    const dir = deployedService();
    writeFileSync(
      join(dir, 'k8s', 'worker.yaml'),
      DEPLOYMENT.replace('name: api', 'name: worker').replace('1500m', '1500x'),
    );
    const broken = await lab(dir, 'init', '--http-app', 'src/app.js');
    expect(broken.exitCode).toBe(2);
    expect(broken.stderr).toBe(
      `${join(dir, 'k8s', 'worker.yaml')}:11:27: spec.template.spec.containers[0].resources.limits.cpu: \`limits.cpu\` is "1500x", not a Kubernetes CPU quantity (1500m, "1.5", 2)\n  write e.g. \`cpu: 1500m\` or \`cpu: "1.5"\``,
    );
    writeFileSync(join(dir, 'k8s', 'worker.yaml'), 'apiVersion: v1\nkind: Pod\nspec: {containers: [\n');
    const syntax = await lab(dir, 'init', '--http-app', 'src/app.js');
    expect(syntax.exitCode).toBe(2);
    expect(syntax.stderr).toMatch(new RegExp(`^${join(dir, 'k8s', 'worker.yaml')}:4:1: `));
    expect(existsSync(join(dir, 'experiments.yml'))).toBe(false);
    writeFileSync(join(dir, 'k8s', 'worker.yaml'), DEPLOYMENT.replace('name: api', 'name: {{ .Release.Name }}'));
    const helm = await lab(dir, 'init', '--http-app', 'src/app.js');
    expect(helm.exitCode).toBe(0);
    expect(helm.stderr).toContain(`${join(dir, 'k8s', 'worker.yaml')}: warning: not read: a Helm template`);
    expect(readFileSync(join(dir, 'experiments.yml'), 'utf8')).toContain(
      '# k8s/worker.yaml: not read: a Helm template',
    );
  });

  test('cpus: 1500m plans as 1.5, and runs.csv will say so', async () => {
    const dir = deployedService();
    writeFileSync(
      join(dir, 'experiments.yml'),
      'experiments:\n  budgets:\n    matrix:\n      workload: pbkdf2\n      cpus: [1500m, "0.5"]\n',
    );
    const planned = await lab(dir, 'plan', '--json');
    expect(planned.exitCode).toBe(0);
    expect(JSON.parse(planned.stdout).experiments[0].cells.map((cell) => cell.values.cpus)).toEqual([1.5, 0.5]);
    writeFileSync(
      join(dir, 'experiments.yml'),
      'experiments:\n  budgets:\n    matrix:\n      workload: pbkdf2\n      cpus: [1500x]\n',
    );
    const bad = await lab(dir, 'plan');
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain(
      'experiments.yml:5:14: experiments.budgets.matrix.cpus[0]: expected a CPU amount greater than 0: a number of CPUs (1.5, at most 3 decimals) or a Kubernetes CPU quantity (1500m, "0.5"), found "1500x"\n  write e.g. `cpus: [1500m]` or `cpus: [1.5]`',
    );
  });
});
