// Containers are found by the project label, never by name, and each carries its runner's owner label
// (owner.js: host, pid and start time): whatever a killed runner left behind (SIGKILL, power loss) is
// recognisable at the next start, while the runs of another runner still alive are left alone.
import { hostname } from 'node:os';
import { LABELS, PROJECT, PROJECT_LABEL } from './labels.js';
import { isOwnerAlive, OWNER, ownerHost } from './owner.js';

export async function listProjectContainers(docker) {
  return docker.listContainers({ all: true, filters: { label: [`${PROJECT_LABEL}=${PROJECT}`] } });
}

/** Removes the containers whose runner is gone; returns them, and how many live ones it left. */
export async function removeOrphanContainers(docker, { isAlive = isOwnerAlive } = {}) {
  const found = await listProjectContainers(docker);
  const orphans = found.filter((info) => isOrphan(info.Labels?.[LABELS.owner], isAlive));
  await removeAll(docker, orphans);
  return { removed: orphans.map(describe), leftAlone: found.length - orphans.length };
}

/** This runner's own containers (second Ctrl-C: stop waiting, remove them now). */
export async function removeOwnContainers(docker) {
  const own = (await listProjectContainers(docker)).filter((info) => info.Labels?.[LABELS.owner] === OWNER);
  await removeAll(docker, own);
  return own.map(describe);
}

export function isOrphan(owner, isAlive = isOwnerAlive) {
  if (!owner) return true;
  // A runner on another machine sharing this engine cannot be checked from here: leave its runs.
  if (ownerHost(owner) !== hostname()) return false;
  return !isAlive(owner);
}

async function removeAll(docker, containers) {
  await Promise.all(
    containers.map((info) =>
      docker
        .getContainer(info.Id)
        .remove({ force: true, v: true })
        .catch((error) => {
          if (error?.statusCode !== 404 && error?.statusCode !== 409) throw error;
        }),
    ),
  );
}

function describe(info) {
  return { id: info.Id, name: info.Names?.[0]?.replace(/^\//, ''), labels: info.Labels };
}
