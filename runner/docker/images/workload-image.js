// The image every run uses: node-threads-lab/workload:node<major>-<hash>, its base (base-image.js) + images/workload,
// tagged by content. Tagging by content makes "is it up to date?" a single inspect: an unchanged tree is never rebuilt.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, readlink, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_NODE_MAJOR } from '../../domain/axes.js';
import { LabError } from '../../errors.js';
import { imageKey, pickImageChoice } from '../../plan/image-choice.js';
import { execa } from '../engines/lazy-execa.js';
import { PROJECT, PROJECT_LABEL } from '../runs/labels.js';
import { resolveBaseImage } from './base-image-choice.js';
import { createBaseSource, NODE_VERSION_LABEL, probeNodeVersion } from './base-image.js';
import { followProgress, inspectImage } from './image-store.js';

export const WORKLOAD_REPOSITORY = 'node-threads-lab/workload';
export const WORKLOAD_DIR = 'images/workload';

const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const LOCK_STAMP = '.node-threads-lab-lock-hash';
const BASE_LABEL = 'node-threads-lab.base';
const SOURCE_LABEL = 'node-threads-lab.base-source';

/**
 * Make sure a workload image exists for each Node major (and image choice, see base-images.js),
 * building only what is missing. onProgress receives one line of text per step, such as
 * `node24 import: importing <tag>`; an unchanged tree yields two lines per major: where its Node
 * comes from (`node24 base: node:24-bookworm-slim (official) ...`) and `node24 cached: <tag> is up to date`.
 * @param {{ nodeMajors?: number[], requests?: { major: number, choice: string }[] }} options  requests: majors with
 *   an image choice
 * @returns {Promise<Map<number|string, { tag: string, id: string, nodeVersion: string, source: string,
 *   base: string }>>}  keyed by imageKey()
 */
export async function ensureImages(
  docker,
  {
    nodeMajors = [DEFAULT_NODE_MAJOR],
    requests,
    onProgress = () => {},
    root = PROJECT_ROOT,
    cacheDir,
    officialTemplate,
  } = {},
) {
  await assertWorkloadPresent(root);
  const filesRead = readContextFiles(root);
  filesRead.catch(() => {});
  await ensureWorkloadDependencies({ root, onProgress: (event) => onProgress(formatProgress(event)) });
  const images = new Map();
  const wanted =
    requests ?? nodeMajors.map((major) => ({ major: Number(major), choice: pickImageChoice(undefined, major) }));
  for (const { major, choice } of wanted) {
    const key = imageKey(major, choice);
    if (images.has(key)) continue;
    const report = (event) => onProgress(formatProgress({ major, ...event }));
    const base = await resolveBaseImage(createBaseSource(docker, { major, root, cacheDir, onProgress: report }), {
      major,
      choice,
      template: officialTemplate,
    });
    const hash = hashWorkloadContext({ files: await filesRead, baseImageId: base.id });
    const tag = formatWorkloadTag(major, hash);
    const existing = await inspectImage(docker, tag);
    const nodeVersion =
      base.nodeVersion ??
      existing?.Config?.Labels?.[NODE_VERSION_LABEL] ??
      (await probeNodeVersion(docker, base, major));
    report({
      phase: 'base',
      message: `${base.tag} (${base.source}, Node ${nodeVersion})${base.note ? `: ${base.note}` : ''}`,
    });
    let id = existing?.Id;
    if (id) {
      report({ phase: 'cached', message: `${tag} is up to date` });
    } else {
      id = await buildWorkloadImage(docker, { root, tag, base, hash, nodeVersion, onProgress: report });
    }
    images.set(key, { tag, id, nodeVersion, source: base.source, base: base.tag, base_id: base.id });
  }
  return images;
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
  // Read all at once, not one after another: this check runs before every matrix (hashing sorts them).
  const walk = async (relative) => {
    const entries = await readdir(path.join(root, relative), { withFileTypes: true });
    const found = await Promise.all(
      entries.map(async (entry) => {
        const entryPath = path.posix.join(relative, entry.name);
        const absolute = path.join(root, entryPath);
        if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : walk(entryPath);
        if (entry.isSymbolicLink()) return [{ path: entryPath, content: `symlink\0${await readlink(absolute)}` }];
        if (entry.isFile()) return [{ path: entryPath, content: await readFile(absolute) }];
        return [];
      }),
    );
    return found.flat();
  };
  const [dockerfile, workload] = await Promise.all([readFile(path.join(root, 'Dockerfile')), walk(WORKLOAD_DIR)]);
  return [{ path: 'Dockerfile', content: dockerfile }, ...workload];
}

async function assertWorkloadPresent(root) {
  for (const file of ['Dockerfile', `${WORKLOAD_DIR}/run.js`]) {
    const present = await stat(path.join(root, file)).then(
      (info) => info.isFile(),
      () => false,
    );
    if (!present) {
      throw new LabError('ERR_IMAGE_BUILD', 'This file is missing, so the workload image cannot be built', {
        file: path.join(root, file),
        hint: 'Restore it from version control (git checkout -- <file>), then run `node-threads-lab images`.',
      });
    }
  }
}

// Dependencies are installed on the host because containers cannot reach the registry; the stamp
// holds the hash of the lock file they were installed from, so a changed lock reinstalls them.
export async function ensureWorkloadDependencies({ root = PROJECT_ROOT, onProgress = () => {} } = {}) {
  const dir = path.join(root, WORKLOAD_DIR);
  const hasManifest = await stat(path.join(dir, 'package.json')).then(
    () => true,
    () => false,
  );
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
    await execa('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], {
      cwd: dir,
      all: true,
      env: withoutGlobalInstall(process.env),
      extendEnv: false,
    });
  } catch (cause) {
    throw new LabError('ERR_IMAGE_BUILD', `npm ci failed in ${WORKLOAD_DIR}: ${lastLines(cause.all)}`, {
      hint: `Run \`npm ci --omit=dev\` in ${WORKLOAD_DIR} to see the full output; the registry must be reachable from this machine.`,
      cause,
    });
  }
  await mkdir(path.dirname(stamp), { recursive: true });
  await writeFile(stamp, lockHash);
}

// Run by postinstall during `npm install -g`, npm ci would inherit the global install's settings and refuse
// (ECIGLOBAL) or install into the global prefix: this folder's dependencies are a local install, always.
function withoutGlobalInstall(env) {
  return Object.fromEntries(
    Object.entries(env).filter(([name]) => !/^npm_config_(global|location|prefix)$/i.test(name)),
  );
}

async function buildWorkloadImage(docker, { root, tag, base, hash, nodeVersion, onProgress }) {
  onProgress({ phase: 'build', message: `building ${tag} from ${base.tag}` });
  try {
    const response = await docker.buildImage(
      { context: root, src: ['Dockerfile', WORKLOAD_DIR] },
      {
        t: tag,
        // By id: a tag such as node:24-bookworm-slim may move later; the hash already names this id.
        buildargs: { BASE: base.id },
        labels: {
          [PROJECT_LABEL]: PROJECT,
          [NODE_VERSION_LABEL]: nodeVersion,
          [BASE_LABEL]: base.tag,
          [SOURCE_LABEL]: base.source,
          'node-threads-lab.content-hash': hash,
        },
        rm: true,
        forcerm: true,
      },
    );
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
  const id = (await inspectImage(docker, tag))?.Id;
  if (!id)
    throw new LabError('ERR_IMAGE_BUILD', `docker build reported success but ${tag} does not exist`, {
      hint: 'Run `node-threads-lab images` again.',
    });
  return id;
}

/** `node24 import: importing <tag>`, or `npm-ci: ...` for steps shared by every major. */
export function formatProgress({ phase, major, message }) {
  return `${major === undefined ? '' : `node${major} `}${phase}: ${message}`;
}

function lastLines(text = '', count = 5) {
  return text.trim().split('\n').slice(-count).join('\n');
}
