// Your own code on Kubernetes: Docker bind-mounts your folder read-only into each run's container; a pod on another
// machine has no such folder, so the folder becomes part of an image instead, built here on this machine's Docker
// engine (the workload image plus one COPY layer at the same path the mount would have used), owned by root so the
// run's user cannot change it, as with the read-only mount. Tagged by the built image's id: an unchanged folder is
// the same image (Docker's build cache), and a changed one a new tag the nodes cannot confuse with the old.
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LabError } from '../errors.js';
import { imageKey } from '../plan/image-choice.js';
import { PROJECT, PROJECT_LABEL } from '../docker/runs/labels.js';
import { followProgress, inspectImage } from '../docker/images/image-store.js';

export const USER_REPOSITORY = 'node-threads-lab/user';

/** Which image a run with mounts uses: its workload image's key and the folders mounted. */
export function userImageKey(run) {
  const mounts = (run.mounts ?? []).map(({ source, target }) => `${source}:${target}`).join(',');
  return mounts ? `${imageKey(run.nodeMajor, run.imageChoice)}|${mounts}` : null;
}

/**
 * One image per distinct (workload image, folders) among the plans' cells.
 * @returns {Promise<Map<string, { tag: string }>>}  userImageKey → the image
 */
export async function buildUserImages(docker, plans, images, { onProgress = () => {} } = {}) {
  const built = new Map();
  for (const cell of plans.flatMap((plan) => plan.cells)) {
    const run = { mounts: cell.container?.mounts, nodeMajor: cell.nodeMajor, imageChoice: cell.imageChoice };
    const key = userImageKey(run);
    if (key === null || built.has(key)) continue;
    const base = images.get(imageKey(cell.nodeMajor, cell.imageChoice)).tag;
    built.set(key, { tag: await buildUserImage(docker, base, run.mounts, onProgress) });
  }
  return built;
}

async function buildUserImage(docker, base, mounts, onProgress) {
  const context = await mkdtemp(path.join(tmpdir(), 'node-threads-lab-user-'));
  const building = `${USER_REPOSITORY}:building-${process.pid}`;
  try {
    const lines = [`FROM ${base}`, 'USER 0:0'];
    for (const [index, { source, target }] of mounts.entries()) {
      onProgress(`user image: copying ${source} to ${target}`);
      await cp(source, path.join(context, `folder${index}`), { recursive: true, dereference: true });
      lines.push(`COPY folder${index} ${target}`, `RUN chmod -R a+rX,go-w ${target}`);
    }
    // Back to the workload image's user; the pod's securityContext names it too.
    lines.push('USER 1000:1000');
    await writeFile(path.join(context, 'Dockerfile'), `${lines.join('\n')}\n`);
    const response = await docker.buildImage(
      { context, src: ['Dockerfile', ...mounts.map((_, index) => `folder${index}`)] },
      { t: building, labels: { [PROJECT_LABEL]: PROJECT }, rm: true, forcerm: true },
    );
    await followProgress(docker, response, () => {});
    const { Id } = await inspectImage(docker, building);
    const tag = `${USER_REPOSITORY}:${Id.replace(/^sha256:/, '').slice(0, 12)}`;
    const [repo, version] = tag.split(':');
    await docker.getImage(building).tag({ repo, tag: version });
    await docker
      .getImage(building)
      .remove({ noprune: true })
      .catch(() => {});
    onProgress(`user image: ${tag}`);
    return tag;
  } catch (cause) {
    throw new LabError('ERR_IMAGE_BUILD', `could not build the image with your code (${cause.message})`, {
      hint: 'check that the folder can be read, and that the Docker engine has room for one more image',
      cause,
    });
  } finally {
    await rm(context, { recursive: true, force: true });
  }
}
