// plan() on Kubernetes: --kubernetes CONTEXT[/NAMESPACE] over the file's block, and the plan says where the runs go
// and how many at once at most; nothing is reached (the node pool is read when the run starts).
import { fileURLToPath } from 'node:url';
import { plan } from '../../../runner/index.js';

const DEFAULT_FILE = fileURLToPath(new URL('../../../experiments.yml', import.meta.url));

test('--kubernetes names the context and namespace; the plan says the lanes and their bound', async () => {
  const planned = await plan(DEFAULT_FILE, { seed: 1, kubernetes: 'kube-lab/node-threads-lab' });
  expect(planned.kubernetes).toEqual({
    context: 'kube-lab',
    namespace: 'node-threads-lab',
    node_pool: {},
    lanes_up_to: 1,
    lanes_why: expect.stringContaining('kubernetes.lanes is 1'),
  });
  expect(planned.count).toBeGreaterThan(0);
  expect((await plan(DEFAULT_FILE, { seed: 1 })).kubernetes).toBeNull();
});

test('a malformed --kubernetes, or one beside --engine, is a usage error before anything is read', async () => {
  for (const options of [{ kubernetes: 'a/b/c' }, { kubernetes: '/ns' }, { kubernetes: 'lab', engines: ['laptop'] }]) {
    await expect(plan(DEFAULT_FILE, options)).rejects.toMatchObject({
      code: 'ERR_USAGE',
      message: expect.stringContaining('expected CONTEXT or CONTEXT/NAMESPACE, without --engine'),
    });
  }
});
