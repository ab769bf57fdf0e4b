// Reaching a cluster: a kubeconfig and its context, as kubectl reads them; an API server that refuses is a lost
// backend (the run gets no row, --resume finishes it), never a failed run.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isBackendLost } from '../../../runner/backend/contract.js';
import { openCluster } from '../../../runner/kubernetes/cluster.js';

function writeKubeconfig(server) {
  const file = join(mkdtempSync(join(tmpdir(), 'lab-kubeconfig-')), 'config');
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'c', cluster: { server } }],
    users: [{ name: 'u', user: { token: 'x' } }],
    contexts: [{ name: 'lab', context: { cluster: 'c', user: 'u', namespace: 'runs' } }],
    'current-context': 'lab',
  };
  writeFileSync(file, JSON.stringify(config));
  return file;
}

test("the context's namespace unless one is named; an unknown context says which there are", () => {
  const kubeconfig = writeKubeconfig('https://127.0.0.1:1');
  expect(openCluster({ kubeconfig })).toMatchObject({ name: 'kubernetes:lab/runs', namespace: 'runs' });
  expect(openCluster({ kubeconfig, namespace: 'other' }).name).toBe('kubernetes:lab/other');
  expect(() => openCluster({ kubeconfig, context: 'prod' })).toThrow(
    expect.objectContaining({ code: 'ERR_USAGE', message: 'the kubeconfig has no context `prod`' }),
  );
});

test('an API server that refuses the connection is a lost backend, named', async () => {
  const cluster = openCluster({ kubeconfig: writeKubeconfig('https://127.0.0.1:1') });
  const error = await cluster
    .call('list Jobs', () => cluster.batch.listNamespacedJob({ namespace: cluster.namespace }))
    .catch((caught) => caught);
  expect(isBackendLost(error)).toBe(true);
  expect(error).toMatchObject({ engine: 'kubernetes:lab/runs' });
  expect(error.message).toMatch(
    /^the Kubernetes API server of kubernetes:lab\/runs stopped answering \(list Jobs: ECONNREFUSED/,
  );
});
