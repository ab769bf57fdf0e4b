// The images every run uses, built locally because no registry is reachable from the engine:
//   node-threads-lab/base:node<version>-<rootfs id> Debian minbase + Node + user lab, imported from a rootfs
//   node-threads-lab/workload:node<major>-<hash>   base + images/workload, tagged by content
// Tagging by content makes "is it up to date?" a single inspect: an unchanged tree is never rebuilt.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, readlink, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { withBaseRootfs } from '../../images/base/build-rootfs.js';
import { ROOTFS_ID } from '../../images/base/debian-rootfs.js';
import { resolveNodeVersion } from '../../images/base/node-versions.js';
import { DEFAULT_NODE_MAJOR } from '../domain/axes.js';
import { LabError } from '../errors.js';
import { PROJECT, PROJECT_LABEL } from './client.js';
import { ensureHostTools } from './engine.js';

export { DEFAULT_NODE_MAJOR };
export const BASE_REPOSITORY = 'node-threads-lab/base';
export const WORKLOAD_REPOSITORY = 'node-threads-lab/workload';
export const WORKLOAD_DIR = 'images/workload';

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LOCK_STAMP = '.node-threads-lab-lock-hash';
const CONTAINER_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * Make sure a workload image exists for each Node major, building only what is missing.
 * onProgress receives one line of text per step, such as `node24 import: importing <tag>`; an
 * unchanged tree yields exactly one line per major, `node<major> cached: <tag> is up to date`.
 * @returns {Promise<Map<number, { tag: string, id: string, nodeVersion: string }>>}
 */
export async function ensureImages(docker, { nodeMajors = [DEFAULT_NODE_MAJOR], onProgress = () => {}, root = PROJECT_ROOT, cacheDir } = {}) {
  await assertWorkloadPresent(root);
  await ensureWorkloadDependencies({ root, onProgress: (event) => onProgress(formatProgress(event)) });
  const files = await readContextFiles(root);
  const images = new Map();
  for (const requested of new Set(nodeMajors.map(String))) {
    const nodeVersion = await resolveNodeVersion(requested);
    const major = Number(requested);
    const report = (event) => onProgress(formatProgress({ major, ...event }));
    const base = await ensureBaseImage(docker, { nodeVersion, cacheDir, onProgress: report });
    const hash = hashWorkloadContext({ files, baseImageId: base.id });
    const tag = formatWorkloadTag(major, hash);
    let id = await inspectImageId(docker, tag);
    if (id) {
      report({ phase: 'cached', message: `${tag} is up to date` });
    } else {
      id = await buildWorkloadImage(docker, { root, tag, base, hash, nodeVersion, onProgress: report });
    }
    images.set(major, { tag, id, nodeVersion });
  }
  return images;
}

export function formatBaseTag(nodeVersion) {
  return `${BASE_REPOSITORY}:node${nodeVersion}-${ROOTFS_ID}`;
}

export function formatWorkloadTag(major, hash) {
  return `${WORKLOAD_REPOSITORY}:node${major}-${hash.slice(0, 12)}`;
}

/**
 * sha256 over everything that ends up in the workload image: the build files (sorted by path,
 * each length-prefixed so no two trees hash alike) and the base image they are built on.
 * @param {{ files: { path: string, content: Buffer|string }[], baseImageId: string }} input
 */
export function hashWorkloadContext({ files, baseImageId }) {
  const hash = createHash('sha256');
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const file of sorted) {
    const content = Buffer.from(file.content);
    hash.update(`file\0${file.path}\0${content.length}\0`);
    hash.update(content);
  }
  hash.update(`base\0${baseImageId}`);
  return hash.digest('hex');
}

/**
 * The Dockerfile and every file under images/workload except node_modules (which package-lock.json
 * stands for), as { path, content } with paths relative to `root`; a symlink contributes its target.
 */
export async function readContextFiles(root = PROJECT_ROOT) {
  const files = [{ path: 'Dockerfile', content: await readFile(path.join(root, 'Dockerfile')) }];
  const walk = async (relative) => {
    const entries = await readdir(path.join(root, relative), { withFileTypes: true });
    for (const entry of entries) {
      const entryPath = path.posix.join(relative, entry.name);
      const absolute = path.join(root, entryPath);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') await walk(entryPath);
      } else if (entry.isSymbolicLink()) {
        files.push({ path: entryPath, content: `symlink\0${await readlink(absolute)}` });
      } else if (entry.isFile()) {
        files.push({ path: entryPath, content: await readFile(absolute) });
      }
    }
  };
  await walk(WORKLOAD_DIR);
  return files;
}

/** The image's id, or undefined when the engine has no such image. */
export async function inspectImageId(docker, reference) {
  try {
    return (await docker.getImage(reference).inspect()).Id;
  } catch (error) {
    if (error.statusCode === 404) return undefined;
    throw error;
  }
}

async function assertWorkloadPresent(root) {
  for (const file of ['Dockerfile', `${WORKLOAD_DIR}/run.js`]) {
    const present = await stat(path.join(root, file)).then((info) => info.isFile(), () => false);
    if (!present) {
      throw new LabError('ERR_IMAGE_BUILD', 'This file is missing, so the workload image cannot be built', {
        file: path.join(root, file),
        hint: 'Restore it from version control (git checkout -- <file>), then run `npm run images`.',
      });
    }
  }
}

// Dependencies are installed on the host because containers cannot reach the registry; the stamp
// holds the hash of the lock file they were installed from, so a changed lock reinstalls them.
export async function ensureWorkloadDependencies({ root = PROJECT_ROOT, onProgress = () => {} } = {}) {
  const dir = path.join(root, WORKLOAD_DIR);
  const hasManifest = await stat(path.join(dir, 'package.json')).then(() => true, () => false);
  if (!hasManifest) return;
  const lock = await readFile(path.join(dir, 'package-lock.json')).catch(() => undefined);
  if (!lock) {
    throw new LabError('ERR_IMAGE_BUILD', `${WORKLOAD_DIR}/package-lock.json is missing`, {
      file: path.join(dir, 'package-lock.json'),
      hint: `Create it with \`npm install --package-lock-only\` in ${WORKLOAD_DIR}, so that images are reproducible.`,
    });
  }
  const lockHash = createHash('sha256').update(lock).digest('hex');
  const stamp = path.join(dir, 'node_modules', LOCK_STAMP);
  if ((await readFile(stamp, 'utf8').catch(() => '')) === lockHash) return;
  onProgress({ phase: 'npm-ci', message: `npm ci --omit=dev in ${WORKLOAD_DIR}` });
  try {
    await execa('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], { cwd: dir, all: true });
  } catch (cause) {
    throw new LabError('ERR_IMAGE_BUILD', `npm ci failed in ${WORKLOAD_DIR}: ${lastLines(cause.all)}`, {
      hint: `Run \`npm ci --omit=dev\` in ${WORKLOAD_DIR} to see the full output; the registry must be reachable from this machine.`,
      cause,
    });
  }
  await mkdir(path.dirname(stamp), { recursive: true });
  await writeFile(stamp, lockHash);
}

async function ensureBaseImage(docker, { nodeVersion, cacheDir, onProgress }) {
  const tag = formatBaseTag(nodeVersion);
  const existing = await inspectImageId(docker, tag);
  if (existing) return { tag, id: existing };
  // Only now is debootstrap needed: a machine that has its images never runs apt for it.
  await ensureHostTools({ onProgress: (message) => onProgress({ phase: 'host-tools', message }) });
  try {
    await withBaseRootfs({ nodeVersion, cacheDir, onProgress }, (tarStream) => importRootfs(docker, tarStream, { tag, nodeVersion, onProgress }));
  } catch (cause) {
    if (cause instanceof LabError) throw cause;
    throw new LabError('ERR_IMAGE_BUILD', `Could not make the root filesystem for ${tag}: ${cause.shortMessage ?? cause.message}`, {
      hint: 'Check free disk space in the cache directory (XDG_CACHE_HOME or ~/.cache), then run `npm run images` again.',
      cause,
    });
  }
  const id = await inspectImageId(docker, tag);
  if (!id) {
    throw new LabError('ERR_IMAGE_BUILD', `Importing ${tag} reported success but the engine has no such image`, {
      hint: 'Run `npm run images` again; if it persists, check the engine log.',
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
      hint: 'Check the engine log and free disk space under /var/lib/docker, then run `npm run images` again.',
      cause,
    });
  }
}

async function buildWorkloadImage(docker, { root, tag, base, hash, nodeVersion, onProgress }) {
  onProgress({ phase: 'build', message: `building ${tag} from ${base.tag}` });
  try {
    const response = await docker.buildImage({ context: root, src: ['Dockerfile', WORKLOAD_DIR] }, {
      t: tag,
      buildargs: { BASE: base.tag },
      labels: { [PROJECT_LABEL]: PROJECT, 'node-threads-lab.node-version': nodeVersion, 'node-threads-lab.content-hash': hash },
      rm: true,
      forcerm: true,
    });
    // Only the step headers: the rest is layer ids, and an error arrives in the stream's last line.
    await followProgress(docker, response, (event) => {
      if (event.stream?.startsWith('Step ')) onProgress({ phase: 'build', message: event.stream.trim() });
    });
  } catch (cause) {
    throw new LabError('ERR_IMAGE_BUILD', `docker build of ${tag} failed: ${cause.message}`, {
      file: path.join(root, 'Dockerfile'),
      hint: 'Fix the failing Dockerfile step; the build context holds only the Dockerfile and images/workload/, and no step may use the network.',
      cause,
    });
  }
  const id = await inspectImageId(docker, tag);
  if (!id) throw new LabError('ERR_IMAGE_BUILD', `docker build reported success but ${tag} does not exist`, { hint: 'Run `npm run images` again.' });
  return id;
}

// The engine reports failures inside a 200 response, as a JSON line with `error`.
function followProgress(docker, stream, onEvent) {
  return new Promise((resolve, reject) => {
    docker.modem.followProgress(stream, (error, output) => {
      const failed = output?.find((event) => event.error || event.errorDetail);
      if (error) reject(error);
      else if (failed) reject(new Error(failed.errorDetail?.message ?? failed.error));
      else resolve(output);
    }, onEvent);
  });
}

/** `node24 import: importing <tag>`, or `npm-ci: ...` for steps shared by every major. */
export function formatProgress({ phase, major, message }) {
  return `${major === undefined ? '' : `node${major} `}${phase}: ${message}`;
}

function lastLines(text = '', count = 5) {
  return text.trim().split('\n').slice(-count).join('\n');
}
