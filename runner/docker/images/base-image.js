// The base image of a run: an image with Node, chosen by base-image-choice.js — the official
// node:<major>-bookworm-slim, an image the person named, or, where neither can be had,
// node-threads-lab/base:node<version>-<rootfs id> (Debian minbase + Node + user lab) imported from a root
// filesystem built on this machine (rootfs/): no registry needed, but root.
import path from 'node:path';
import { LabError } from '../../errors.js';
import { ensureHostTools } from '../engines/provision.js';
import { PROJECT, PROJECT_LABEL } from '../runs/labels.js';
import { runContainer } from '../runs/run-container.js';
import { followProgress, inspectImageId } from './image-store.js';
import { ROOTFS_ID } from './rootfs/debian-rootfs.js';
import { resolveNodeVersion } from './rootfs/node-versions.js';

export const BASE_REPOSITORY = 'node-threads-lab/base';
export const NODE_VERSION_LABEL = 'node-threads-lab.node-version';

const CONTAINER_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
const PROBE_TIMEOUT_MS = 60_000;

// What resolveBaseImage needs from the engine and this machine.
export function createBaseSource(docker, { major, root, cacheDir, onProgress }) {
  const localVersion = () => resolveNodeVersion(String(major));
  return {
    inspect: (reference) => inspectImageId(docker, reference),
    pull: async (reference) => {
      onProgress({ phase: 'pull', message: `docker pull ${reference}` });
      await followProgress(docker, await docker.pull(reference), () => {});
    },
    buildLocal: async () => {
      const nodeVersion = await localVersion();
      return { ...(await ensureBaseImage(docker, { nodeVersion, cacheDir, onProgress })), nodeVersion };
    },
    hasLocal: async () => Boolean(await inspectImageId(docker, formatBaseTag(await localVersion()))),
    canBuildLocal: async () => process.getuid?.() === 0,
    fixCommand: (wantedMajor) => {
      const dir = path.resolve(root);
      return `sudo npm ${path.resolve(process.cwd()) === dir ? '' : `--prefix ${dir} `}run images -- ${wantedMajor}`;
    },
  };
}

/**
 * A base image not built here must have `node` (checked by running it, locked down like every run)
 * and its version is what run.json records. A mismatch with the asked major is refused: `node: 24`
 * means Node 24 whatever image it comes from.
 */
export async function probeNodeVersion(docker, base, major) {
  const result = await runContainer(docker, {
    image: base.id,
    env: {},
    limits: {},
    timeoutMs: PROBE_TIMEOUT_MS,
    labels: {},
    entrypoint: ['node'],
    cmd: ['-p', 'process.versions.node'],
  }).catch((error) => ({ exitCode: null, stdout: '', stderr: error.message }));
  const version = result.exitCode === 0 ? result.stdout.trim() : '';
  if (!/^\d+\.\d+\.\d+/.test(version)) {
    throw new LabError(
      'ERR_IMAGE_UNAVAILABLE',
      `The image ${base.tag} has no working \`node\`: ${(result.stderr || result.stdout).trim().split('\n').at(-1) || `exit code ${result.exitCode}`}`,
      {
        hint: 'name an image with Node.js on its PATH (e.g. one built FROM node:24-bookworm-slim), or write `image: auto`',
      },
    );
  }
  if (Number(version.split('.')[0]) !== Number(major)) {
    throw new LabError(
      'ERR_IMAGE_UNAVAILABLE',
      `The image ${base.tag} has Node ${version}, but the cells ask for Node ${major}`,
      {
        hint: `set \`node: ${version.split('.')[0]}\` in the matrix for this image, or name an image with Node ${major}`,
      },
    );
  }
  return version;
}

export function formatBaseTag(nodeVersion) {
  return `${BASE_REPOSITORY}:node${nodeVersion}-${ROOTFS_ID}`;
}

async function ensureBaseImage(docker, { nodeVersion, cacheDir, onProgress }) {
  const tag = formatBaseTag(nodeVersion);
  const existing = await inspectImageId(docker, tag);
  if (existing) return { tag, id: existing };
  // Only now is debootstrap needed: a machine that has its images never runs apt for it.
  await ensureHostTools({ onProgress: (message) => onProgress({ phase: 'host-tools', message }) });
  try {
    // Loaded only here: building a base image is rare, and its modules are not on the way to a run.
    const { withBaseRootfs } = await import('./rootfs/build-rootfs.js');
    await withBaseRootfs({ nodeVersion, cacheDir, onProgress }, (tarStream) =>
      importRootfs(docker, tarStream, { tag, nodeVersion, onProgress }),
    );
  } catch (cause) {
    if (cause instanceof LabError) throw cause;
    throw new LabError(
      'ERR_IMAGE_BUILD',
      `Could not make the root filesystem for ${tag}: ${cause.shortMessage ?? cause.message}`,
      {
        hint: 'Check free disk space in the cache directory (XDG_CACHE_HOME or ~/.cache), then run `node-threads-lab images` again.',
        cause,
      },
    );
  }
  const id = await inspectImageId(docker, tag);
  if (!id) {
    throw new LabError('ERR_IMAGE_BUILD', `Importing ${tag} reported success but the engine has no such image`, {
      hint: 'Run `node-threads-lab images` again; if it persists, check the engine log.',
    });
  }
  return { tag, id };
}

async function importRootfs(docker, tarStream, { tag, nodeVersion, onProgress }) {
  const [repo, tagName] = tag.split(':');
  onProgress({ phase: 'import', message: `importing ${tag}` });
  try {
    const response = await docker.importImage(tarStream, {
      repo,
      tag: tagName,
      changes: [
        `LABEL ${PROJECT_LABEL}=${PROJECT} node-threads-lab.node-version=${nodeVersion}`,
        `ENV PATH=${CONTAINER_PATH}`,
        'CMD ["node"]',
      ],
    });
    await followProgress(docker, response, () => {});
  } catch (cause) {
    throw new LabError('ERR_IMAGE_BUILD', `Could not import the base image ${tag}: ${cause.message}`, {
      hint: 'Check the engine log and free disk space under /var/lib/docker, then run `node-threads-lab images` again.',
      cause,
    });
  }
}
