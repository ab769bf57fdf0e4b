// Jobs are found by the project label, never by name, and each carries its runner's owner annotation (Docker's owner
// label, docker/runs/owner.js: host, pid and start time, which a label value cannot hold): what a killed runner left
// in the namespace is removed at the next start, while the Jobs of another runner still alive are left alone.
import { LABELS, PROJECT, PROJECT_LABEL } from '../docker/runs/labels.js';
import { isOrphan } from '../docker/runs/cleanup.js';
import { OWNER } from '../docker/runs/owner.js';
import { removeJob } from './run-job.js';

export async function listProjectJobs(cluster) {
  const list = await cluster.call('list Jobs', () =>
    cluster.batch.listNamespacedJob({ namespace: cluster.namespace, labelSelector: `${PROJECT_LABEL}=${PROJECT}` }),
  );
  return list.items;
}

/** Removes the Jobs whose runner is gone (waiting until their pods are); returns them, and how many it left. */
export async function removeOrphanJobs(cluster, { isAlive } = {}) {
  const found = await listProjectJobs(cluster);
  const orphans = found.filter((job) => isOrphan(job.metadata.annotations?.[LABELS.owner], isAlive));
  await Promise.all(orphans.map((job) => removeJob(cluster, job.metadata.name, { wait: true })));
  return { removed: orphans.map(describe), leftAlone: found.length - orphans.length };
}

/**
 * This runner's own Jobs (the probe's too): removed when it leaves at once. `wait`: until they are gone (Ctrl-C while
 * the engines are prepared); without it, only asked for (a second Ctrl-C: leave now).
 */
export async function removeOwnJobs(cluster, { wait = false } = {}) {
  const own = (await listProjectJobs(cluster)).filter((job) => job.metadata.annotations?.[LABELS.owner] === OWNER);
  await Promise.all(own.map((job) => removeJob(cluster, job.metadata.name, { wait })));
  return own.map(describe);
}

function describe(job) {
  return { id: job.metadata.uid, name: job.metadata.name, labels: job.metadata.annotations };
}
