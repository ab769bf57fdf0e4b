// `kubernetes:` says where every experiment of the file runs: checked like any key, with its place in the file.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseYaml, validateConfig } from '../../../runner/config/load-config.js';

const EXPERIMENTS = 'experiments:\n  e:\n    matrix: {workload: [pbkdf2], cpus: [1]}\n';

function validate(text, file = '/lab/experiments.yml') {
  const { raw, locate } = parseYaml(text, file);
  return validateConfig(raw, { file, locate });
}

function errorsOf(text) {
  try {
    validate(text);
  } catch (error) {
    return (error.errors ?? [error]).map(({ line, column, path, message }) => ({
      at: `${line}:${column}`,
      path,
      message,
    }));
  }
  throw new Error('expected a config error');
}

test('a context, a namespace, a node pool; the kubeconfig relative to the file; the CPU checks left to the nodes', () => {
  const config = validate(
    `kubernetes:\n  context: lab\n  namespace: runs\n  kubeconfig: kube/config\n  node_pool: {pool: api}\n${EXPERIMENTS}`,
  );
  expect(config.kubernetes).toEqual({
    context: 'lab',
    namespace: 'runs',
    kubeconfig: '/lab/kube/config',
    node_pool: { pool: 'api' },
  });
  expect(config.host).toBeNull();
  expect(validate(`kubernetes: {kubeconfig: ~/k}\n${EXPERIMENTS}`).kubernetes.kubeconfig).toBe(join(homedir(), 'k'));
});

test('a wrong key, a bad namespace, and two places to run at once are config errors with their position', () => {
  expect(errorsOf(`kubernetes: {contxt: lab}\n${EXPERIMENTS}`)).toEqual([
    expect.objectContaining({ at: '1:14', message: expect.stringContaining('contxt') }),
  ]);
  expect(errorsOf(`kubernetes: {namespace: Runs_1}\n${EXPERIMENTS}`)[0].path).toBe('kubernetes.namespace');
  expect(errorsOf(`engines: [laptop]\nkubernetes: {context: lab}\n${EXPERIMENTS}`)).toEqual([
    expect.objectContaining({ at: '1:1', message: '`engines:` (Docker) and `kubernetes:` both say where to run' }),
  ]);
  expect(
    errorsOf('kubernetes: {context: lab}\nexperiments:\n  e:\n    matrix: {workload: [pbkdf2], engine: [a]}\n'),
  ).toEqual([expect.objectContaining({ at: '4:34', path: 'experiments.e.matrix.engine' })]);
});
