// Every experiments.yml example in the README and docs/ does what its text says: it expands (as
// `--plan` does) to exactly the cells listed here, with no warning. A new example needs an entry here;
// an entry whose example is gone fails too.
import { readFileSync } from 'node:fs';
import { planExample, readExamples } from '../../support/doc-examples.js';

const cross = (...axes) =>
  axes
    .reduce((rows, [axis, values]) => rows.flatMap((row) => values.map((value) => [...row, `${axis}=${value}`])), [[]])
    .map((row) => row.join(' '));

const EXPECTED = {
  'README.md#pool-vs-cores': cross(
    ['workload', ['pbkdf2', 'argon2']],
    ['cpus', [1, 2]],
    ['uv_threadpool_size', [1, 2, 4]],
  ),
  // Kubernetes CPU quantities, planned as the numbers they are.
  'docs/experiments.md#pod-budgets': cross(
    ['workload', ['pbkdf2']],
    ['cpus', [0.5, 1.5]],
    ['uv_threadpool_size', [1, 4]],
  ),
  'docs/experiments.md#pool-advice': cross(
    ['workload', ['pbkdf2']],
    ['cpus', [1, 2]],
    ['uv_threadpool_size', [1, 2, 4, 8]],
  ),
  // The capacity search: one cell per setting at each budget, each its own rates.
  'docs/experiments.md#login-capacity': cross(['workload', ['http']], ['cpus', [1]], ['uv_threadpool_size', [2, 4]]),
  'docs/bench-race.md#bench-race': cross(['workload', ['pbkdf2']], ['cpus', [2]], ['uv_threadpool_size', [1, 2, 4, 8]]),
  'docs/bench-noise.md#bench-noise': cross(
    ['workload', ['pbkdf2']],
    ['cpus', [1, 2]],
    ['uv_threadpool_size', [1, 2, 4, 8]],
  ),
  'docs/examples.md#pbkdf2-waves': cross(['workload', ['pbkdf2']], ['uv_threadpool_size', [1, 4, 8]], ['cpus', [2]]),
  // One thread, 2 workers, 2 processes — on 1 and on 2 CPUs; never workers and cluster together.
  'docs/examples.md#offload': [
    'workload=pbkdf2 cpus=1 workers=0 cluster=0',
    'workload=pbkdf2 cpus=1 workers=0 cluster=2',
    'workload=pbkdf2 cpus=1 workers=2 cluster=0',
    'workload=pbkdf2 cpus=2 workers=0 cluster=0',
    'workload=pbkdf2 cpus=2 workers=0 cluster=2',
    'workload=pbkdf2 cpus=2 workers=2 cluster=0',
  ],
  // A quota without pinning, pinning without a quota: never both on one cell.
  'docs/examples.md#quota': cross(
    ['workload', ['argon2']],
    ['uv_threadpool_size', [4]],
    ['node', [22, 24]],
    ['cpus', [1]],
  ),
  'docs/examples.md#pinning': cross(
    ['workload', ['argon2']],
    ['uv_threadpool_size', [4]],
    ['node', [22, 24]],
    ['cpuset', ['0']],
  ),
  'docs/examples.md#node-versions': cross(['workload', ['pbkdf2']], ['node', [20, 24]], ['uv_threadpool_size', [4]]),
  // 16 combinations, less the 2 excluded (cpus 1, pool 8), one of them extended with cpuset 0.
  'docs/experiments.md#pool-vs-cores': [
    'workload=pbkdf2 cpus=1 uv_threadpool_size=1',
    'workload=pbkdf2 cpus=1 uv_threadpool_size=2',
    'workload=pbkdf2 cpus=1 uv_threadpool_size=4 cpuset=0',
    'workload=pbkdf2 cpus=2 uv_threadpool_size=1',
    'workload=pbkdf2 cpus=2 uv_threadpool_size=2',
    'workload=pbkdf2 cpus=2 uv_threadpool_size=4',
    'workload=pbkdf2 cpus=2 uv_threadpool_size=8',
    ...cross(['workload', ['argon2']], ['cpus', [1]], ['uv_threadpool_size', [1, 2, 4]]),
    ...cross(['workload', ['argon2']], ['cpus', [2]], ['uv_threadpool_size', [1, 2, 4, 8]]),
  ],
  'docs/http.md#login-route': cross(
    ['workload', ['http']],
    ['cpus', [1, 2]],
    ['cluster', [0, 2, 4]],
    ['uv_threadpool_size', [1, 4]],
  ),
  'docs/http.md#render-offload': cross(
    ['workload', ['http']],
    ['cpus', [1]],
    ['cpuset', ['0']],
    ['workers', [0, 1, 2]],
  ),
  'docs/own-code.md#hash-waves': cross(['workload', ['script']], ['cpus', [1, 2]], ['uv_threadpool_size', [1, 4]]),
  'docs/own-code.md#perl-primes': cross(['workload', ['command']], ['cpus', [0.5, 2]]),
  // The service's own start command: its pool and its own WEB_CONCURRENCY, env axes after the built-in ones.
  'docs/own-code.md#login-service': cross(
    ['workload', ['http']],
    ['cpus', [1]],
    ['uv_threadpool_size', [1, 2]],
    ['WEB_CONCURRENCY', [1, 2]],
  ),
  // The machine as a compared factor: every cell on its own engine.
  'docs/kubernetes.md#pool-vs-cores': cross(
    ['workload', ['pbkdf2']],
    ['cpus', [0.5, 1]],
    ['uv_threadpool_size', [1, 4]],
  ),
  'docs/scale.md#laptop-vs-server': cross(['workload', ['pbkdf2']], ['engine', ['laptop', 'server']], ['cpus', [1, 2]]),
  'docs/report.md#pool-vs-cores': cross(
    ['workload', ['pbkdf2']],
    ['cpus', [1, 2]],
    ['uv_threadpool_size', [1, 2, 4, 8]],
  ),
};

const planned = readExamples().flatMap((example) =>
  planExample(example).map((plan) => ({ key: `${example.file}#${plan.experiment}`, ...plan })),
);

test('every example has an expectation here, and every expectation an example', () => {
  expect(planned.map(({ key }) => key).sort()).toEqual(Object.keys(EXPECTED).sort());
});

test.each(planned.map((plan) => [plan.key, plan]))(
  '%s expands to the cells its text describes, without warnings',
  (key, plan) => {
    expect(plan.cells).toEqual(EXPECTED[key]);
    expect(plan.warnings).toEqual([]);
  },
);

test('the examples the issue found wrong now warn when written the old way', () => {
  const [offload] = planExample({
    file: 'old.yml',
    text: `experiments:
  offload:
    matrix: {workload: [pbkdf2], cpus: [1, 2], workers: [0, 2]}
    include:
      - {workload: pbkdf2, cpus: 1, cluster: 2}
      - {workload: pbkdf2, cpus: 2, cluster: 2}
`,
  });
  expect(offload.cells.every((cell) => cell.includes('cluster=2'))).toBe(true);
  expect(offload.warnings).toHaveLength(1);
  const [quota] = planExample({
    file: 'old.yml',
    text: `experiments:
  quota-vs-pinning:
    matrix: {workload: [argon2], uv_threadpool_size: [4], node: [22, 24]}
    include:
      - {cpus: 1}
      - {cpuset: "0"}
`,
  });
  expect(quota.cells).toEqual(
    cross(['workload', ['argon2']], ['uv_threadpool_size', [4]], ['node', [22, 24]], ['cpus', [1]], ['cpuset', ['0']]),
  );
  expect(quota.warnings).toHaveLength(2);
});

test('docs/README.md states the start-up and exit times that `npm run bench -- --docs` measured', () => {
  const measured = readFileSync(new URL('../../../docs/bench.md', import.meta.url), 'utf8')
    .split('\n')
    .find((line) => line.startsWith('Measured by `npm run bench`'));
  expect(measured).toMatch(/start-up to the first container \d+ ms, exit \d+ ms after the last line/);
  expect(readFileSync(new URL('../../../docs/README.md', import.meta.url), 'utf8').split('\n')).toContain(measured);
});

test('docs/README.md states what `npm run bench:slots -- --docs` measured', () => {
  const measured = readFileSync(new URL('../../../docs/bench-slots.md', import.meta.url), 'utf8')
    .split('\n')
    .find((line) => line.startsWith('Measured by `npm run bench:slots`'));
  expect(measured).toMatch(/took \d+\.\d+ of the serial wall clock .* moved the per-run median by [+-]\d+\.\d %/);
  expect(readFileSync(new URL('../../../docs/README.md', import.meta.url), 'utf8').split('\n')).toContain(measured);
});

test('the minimal experiments.yml an empty file is pointed to is itself valid', async () => {
  const { MINIMAL_EXAMPLE } = await import('../../../runner/config/diagnostics/hints.js');
  const yaml = MINIMAL_EXAMPLE.split('\n')
    .slice(1)
    .map((line) => line.slice(4))
    .join('\n');
  const [plan] = planExample({ file: 'minimal.yml', text: yaml });
  expect(plan.cells).toEqual(['workload=pbkdf2 uv_threadpool_size=1', 'workload=pbkdf2 uv_threadpool_size=4']);
});
