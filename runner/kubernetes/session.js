// Everything a matrix on Kubernetes needs before the first Job (what docker/session.js is for Docker): the images,
// built on this machine's Docker engine as for every run, the user's code checked there (the preflight) and copied
// into an image of its own (user-images.js), the images
// handed to the nodes (a registry the person names, pushed with their command; or preloaded); then the cluster
// reached, the orphans of a killed runner removed, the pool's nodes described and probed, every cell checked against
// them, and as many lanes as the namespace and the nodes allow. Reports through `events`; prints nothing.
import { EventEmitter } from 'node:events';
import { parse as parseShell } from 'shell-quote';
import { LabError, LabErrors } from '../errors.js';
import { configError } from '../plan/plan-runs.js';
import { connectEngine } from '../docker/engines/connect.js';
import { execa } from '../docker/engines/lazy-execa.js';
import { ensureImages } from '../docker/images/workload-image.js';
import { OWNER } from '../docker/runs/owner.js';
import { preflightUserCode } from '../docker/runs/preflight-user-code.js';
import { checkKubernetesCells } from './check-cells.js';
import { removeOrphanJobs, removeOwnJobs } from './cleanup.js';
import { openCluster } from './cluster.js';
import { createKubernetesExecutor } from './executor.js';
import { countLanes, readQuotas } from './lanes.js';
import { probeNode, readPoolNodes } from './node-facts.js';
import { buildUserImages } from './user-images.js';

/**
 * @param {object} options
 * @param {object[]} options.plans
 * @param {object} options.config  its `kubernetes:` block says where
 * @param {EventEmitter} [options.events]
 * @param {object[]} [options.connected]  filled with the cluster once reached (removeOwnJobsOn)
 */
export async function openKubernetesSession({ plans, config, events = new EventEmitter(), connected = [] }) {
  const where = config.kubernetes;
  const cluster = openCluster(where);
  const onProgress = (line) => events.emit('image-progress', line);
  const { images, userImages, imageRef, pullPolicy, registry } = await prepareImages({ plans, config, events });

  const version = await cluster.call('read the version', () => cluster.version.getCode());
  connected.push(cluster);
  const orphans = await removeOrphanJobs(cluster);
  events.emit('orphans', { ...orphans, engine: cluster.name });
  const nodes = await readPoolNodes(cluster, where.node_pool);
  const probeImage = imageRef([...images.values()][0].tag);
  await Promise.all(
    nodes.map(async (node) => Object.assign(node, await probeNode(cluster, node, { image: probeImage, pullPolicy }))),
  );
  checkCells(plans, nodes, config);
  const lanes = countLanes({ wanted: where.lanes, nodes, plans, quotas: await readQuotas(cluster) });
  onProgress(describeSession(cluster, nodes, lanes));

  const executor = createKubernetesExecutor(cluster, {
    images,
    userImages,
    imageRef,
    pullPolicy,
    nodeSelector: where.node_pool,
    owner: OWNER,
  });
  return {
    engine: { host: cluster.server, version: { Version: version.gitVersion, ApiVersion: version.gitVersion } },
    engines: nodes.map((node) => ({ ...node, engine: cluster.name, host: cluster.server, source: 'kubernetes' })),
    images,
    kubernetes: {
      context: cluster.context,
      namespace: cluster.namespace,
      node_pool: where.node_pool ?? {},
      ...(where.kubeconfig ? { kubeconfig: where.kubeconfig } : {}),
      server: cluster.server,
      version: version.gitVersion,
      lanes: lanes.count,
      lanes_why: lanes.why,
      ...(registry ? { registry } : {}),
    },
    lanes: Array.from({ length: lanes.count }, (_, index) => ({
      id: `${cluster.name}#${index}`,
      engine: cluster.name,
      slot: { index },
      execute: async (run, options) => ({ ...(await executor.execute(run, options)), engine: cluster.name }),
    })),
    removeOwnContainers: (options) => removeOwnJobsOn(connected, options),
    close: () => {},
  };
}

/**
 * The images on this machine's Docker engine (the workload's, and your code's), the user's code checked there, and
 * both handed over to the nodes: as a run pulls them (`imageRef`, `pullPolicy`).
 */
async function prepareImages({ plans, config, events }) {
  const where = config.kubernetes;
  const onProgress = (line) => events.emit('image-progress', line);
  const { docker } = await connectEngine({ setup: true, onProgress });
  const requests = plans.flatMap((plan) =>
    plan.cells.map(({ nodeMajor, imageChoice }) => ({ major: nodeMajor, choice: imageChoice })),
  );
  const images = await ensureImages(docker, { requests, onProgress });
  await preflightUserCode(docker, { plans, images, config, onProgress: (line) => events.emit('preflight', line) });
  const userImages = await buildUserImages(docker, plans, images, { onProgress });
  const registry = where.registry?.replace(/\/+$/, '');
  const imageRef = (tag) => (registry ? `${registry}/${tag}` : tag);
  await handImagesOver(docker, [...images.values(), ...userImages.values()], {
    imageRef,
    push: where.push,
    onProgress,
  });
  return { images, userImages, imageRef, pullPolicy: registry ? 'IfNotPresent' : 'Never', registry };
}

/** This runner's Jobs removed on every cluster reached (leaving at once); a cluster that fails is skipped. */
export function removeOwnJobsOn(clusters, { wait = false } = {}) {
  return Promise.all(clusters.map((cluster) => removeOwnJobs(cluster, { wait }).catch(() => [])));
}

function checkCells(plans, nodes, config) {
  const problems = plans.flatMap((plan) => checkKubernetesCells(plan, nodes));
  if (problems.length === 0) return;
  const errors = problems.map((problem) => configError(config, problem.path, problem.message, problem.hint));
  throw errors.length === 1 ? errors[0] : new LabErrors(errors);
}

/**
 * The images where the nodes can pull them: with a registry, tagged with its name and handed to the person's own
 * `push` command (`docker push {image}`, `kind load docker-image {image}`, …); without one, the same command (if any)
 * preloads them, and the pods never pull (imagePullPolicy Never).
 */
async function handImagesOver(docker, images, { imageRef, push, onProgress }) {
  for (const { tag } of images) {
    const ref = imageRef(tag);
    if (ref !== tag) {
      const [repo, version] = splitTag(ref);
      await docker.getImage(tag).tag({ repo, tag: version });
    }
    if (!push) continue;
    const argv = parseShell(push).map((part) => (typeof part === 'string' ? part.replaceAll('{image}', ref) : null));
    if (argv.some((part) => part === null) || argv.length === 0) {
      throw new LabError('ERR_CONFIG_INVALID', `kubernetes.push: \`${push}\` is not a plain command`, {
        hint: 'write one command and its arguments, with {image} where the image goes (no pipes or redirections)',
      });
    }
    onProgress(`push: ${argv.join(' ')}`);
    const result = await execa(argv[0], argv.slice(1), { reject: false, all: true });
    if (result.exitCode !== 0) {
      throw new LabError('ERR_PREFLIGHT', `kubernetes.push: \`${argv.join(' ')}\` exited with ${result.exitCode}`, {
        hint: `its output ends: ${String(result.all ?? '')
          .trim()
          .split('\n')
          .slice(-3)
          .join(' | ')}`,
      });
    }
  }
}

function splitTag(ref) {
  const at = ref.lastIndexOf(':');
  return at > ref.lastIndexOf('/') ? [ref.slice(0, at), ref.slice(at + 1)] : [ref, 'latest'];
}

function describeSession(cluster, nodes, lanes) {
  const pool = nodes[0]?.pool;
  const described = nodes
    .map(
      (node) =>
        `${node.name}: ${node.cpus} CPUs (${node.allocatable_cpus} allocatable), ${node.cpu_model ?? 'CPU model unknown'}, CPU manager ${node.cpu_manager}`,
    )
    .join('; ');
  return `${cluster.name}: ${nodes.length} node(s)${pool ? ` of pool ${pool}` : ''} (${described}); ${lanes.count} lane(s): ${lanes.why}`;
}
