// Containers are found by the project label, never by name: whatever a killed runner left behind
// (SIGKILL, power loss) is recognisable at the next start.
import { PROJECT, PROJECT_LABEL } from './client.js';

export async function listProjectContainers(docker) {
  return docker.listContainers({ all: true, filters: { label: [`${PROJECT_LABEL}=${PROJECT}`] } });
}

/** Removes every container of the project; returns what it removed, so the caller can say so. */
export async function removeProjectContainers(docker) {
  const found = await listProjectContainers(docker);
  await Promise.all(found.map((info) => docker.getContainer(info.Id).remove({ force: true, v: true }).catch((error) => {
    if (error?.statusCode !== 404 && error?.statusCode !== 409) throw error;
  })));
  return found.map((info) => ({ id: info.Id, name: info.Names?.[0], labels: info.Labels }));
}
