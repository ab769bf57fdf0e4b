// The node's probe runs as a Job of this runner: it carries the owner annotation, so that a Ctrl-C while the engines
// are prepared (which removes this runner's own Jobs) or the next start (which removes a dead runner's) finds it.
import { LABELS } from '../../../runner/docker/runs/labels.js';
import { OWNER } from '../../../runner/docker/runs/owner.js';
import { probeNode } from '../../../runner/kubernetes/node-facts.js';

/** A cluster whose one Job ends at once with the probe's line, and is gone once deleted. */
function fakeCluster() {
  const state = { created: [], deleted: false };
  const notFound = Object.assign(new Error('not found'), { code: 404 });
  const pod = {
    metadata: { name: 'ntl-probe-pod' },
    spec: {},
    status: { phase: 'Succeeded', containerStatuses: [{ name: 'run', state: { terminated: { exitCode: 0 } } }] },
  };
  const cluster = {
    name: 'fake',
    namespace: 'ns',
    call: (what, fn) => fn(),
    batch: {
      createNamespacedJob: async ({ body }) => {
        state.created.push(body);
        return { metadata: { name: 'ntl-probe' } };
      },
      readNamespacedJob: async () => {
        if (state.deleted) throw notFound;
        return { status: { conditions: [{ type: 'Complete', status: 'True' }] } };
      },
      deleteNamespacedJob: async () => {
        state.deleted = true;
        return {};
      },
    },
    core: {
      listNamespacedPod: async () => ({ items: state.deleted ? [] : [pod] }),
      readNamespacedPodLog: async () => JSON.stringify({ cpuset: '1', model: 'Fake CPU' }),
      readNode: async () => ({ status: { conditions: [{ type: 'Ready', status: 'True' }] } }),
    },
  };
  return { cluster, state };
}

test("the probe's Job carries this runner's owner annotation, and is deleted when it has answered", async () => {
  const { cluster, state } = fakeCluster();
  const facts = await probeNode(cluster, { name: 'n1', hostname: 'n1', cpus: 2 }, { image: 'x', pullPolicy: 'Never' });
  expect(facts).toEqual({ cpu_model: 'Fake CPU', cpu_manager: 'static' });
  expect(state.created).toHaveLength(1);
  expect(state.created[0].metadata.annotations[LABELS.owner]).toBe(OWNER);
  expect(state.deleted).toBe(true);
});
