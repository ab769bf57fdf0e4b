// What a node pool can run, decided before the first Job from the pool's node facts: config errors with the place
// in the file; and how many runs go at once, with the bound that decided.
import { parseYaml, validateConfig } from '../../../runner/config/load-config.js';
import { planExperiments } from '../../../runner/plan/plan-runs.js';
import { checkKubernetesCells } from '../../../runner/kubernetes/check-cells.js';
import { countLanes } from '../../../runner/kubernetes/lanes.js';

const node = (overrides = {}) => ({
  name: 'n1',
  allocatable_cpus: 1.9,
  allocatable_memory_bytes: 8 * 2 ** 30,
  cpu_manager: 'static',
  ...overrides,
});

function planOf(matrix, extra = '') {
  const text = `kubernetes: {context: lab}\nexperiments:\n  e:\n    memory: 256m\n    matrix: ${matrix}\n${extra}`;
  const { raw, locate } = parseYaml(text, 'experiments.yml');
  const config = validateConfig(raw, { file: 'experiments.yml', locate });
  const [plan] = planExperiments(config, { defaultNodeMajor: 24, seed: 1 });
  return { plan, config };
}

test('cells a pod can take pass: a quota, whole CPUs, a cpuset under the static CPU manager', () => {
  const { plan } = planOf('{workload: [pbkdf2], cpus: [0.5, 1]}');
  expect(checkKubernetesCells(plan, [node()])).toEqual([]);
  expect(checkKubernetesCells(planOf('{workload: [pbkdf2], cpuset: ["1"]}').plan, [node()])).toEqual([]);
});

test('what a pod cannot express or a node cannot give is said, at the value in the file', () => {
  const check = (matrix, nodes = [node()], extra) => checkKubernetesCells(planOf(matrix, extra).plan, nodes);
  expect(check('{workload: [pbkdf2, argon2], cpus: [2]}')).toEqual([
    expect.objectContaining({
      path: ['experiments', 'e', 'matrix', 'cpus', 0],
      message: expect.stringContaining(
        'needs 2 CPUs, more than any node of the pool can give (allocatable: n1: 1.9 CPUs)',
      ),
    }),
  ]);
  expect(check('{workload: [pbkdf2], cpuset: ["1"]}', [node({ cpu_manager: 'none' })])[0].message).toMatch(
    /asks for exclusive CPUs, and the node pool's CPU manager is not static \(n1: none\)/,
  );
  expect(check('{workload: [pbkdf2], cpus: [0.5], cpuset: ["1"]}')[0]).toMatchObject({
    path: ['experiments', 'e', 'matrix', 'cpuset', 0],
    message: expect.stringContaining('either whole exclusive CPUs'),
  });
  // The http pair is one pod: the server's CPUs and the load generator's add up on one node.
  expect(check('{workload: [http], cpus: [1]}')[0]).toMatchObject({
    message: expect.stringContaining('needs 2 CPUs (the server 1 + the load generator 1)'),
    hint: expect.stringContaining('params.http.loader.cpus'),
  });
  expect(check('{workload: [http], cpus: [1]}', [node()], '    params: {http: {loader: {cpus: 0.5}}}\n')).toEqual([]);
});

test('lanes: as many as asked, bounded by what the nodes hold and what the ResourceQuotas leave', () => {
  const { plan } = planOf('{workload: [pbkdf2], cpus: [0.5, 1]}');
  const nodes = [node(), node({ name: 'n2', allocatable_cpus: 3.9 })];
  expect(countLanes({ nodes, plans: [plan] })).toEqual({ count: 1, why: 'kubernetes.lanes is 1' });
  expect(countLanes({ wanted: 8, nodes, plans: [plan] })).toEqual({
    count: 4,
    why: "the pool's allocatable CPUs hold 4 of the largest cell (1 CPUs)",
  });
  const quotas = [
    { name: 'team', hard: { 'requests.cpu': '3', pods: '10' }, used: { 'requests.cpu': '1500m', pods: '2' } },
  ];
  expect(countLanes({ wanted: 8, nodes, plans: [plan], quotas })).toEqual({
    count: 1,
    why: 'ResourceQuota team leaves requests.cpu for 1',
  });
});
