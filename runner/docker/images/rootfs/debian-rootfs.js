// A minimal Debian root filesystem made with debootstrap: no registry is needed, only a Debian mirror.
// It is kept as a tarball in the cache, so each further Node major costs an extraction, not a debootstrap.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { execa } from '../../engines/lazy-execa.js';
import { LabError } from '../../../errors.js';

export const DEBIAN_SUITE = 'bookworm';
export const DEBIAN_MIRROR = 'http://deb.debian.org/debian';
// Beyond minbase: Node.js 26's binary links libatomic.so.1.
export const EXTRA_PACKAGES = ['libatomic1'];
/** Names the recipe in the cached tarball and the base image tag, so a changed recipe is rebuilt. */
export const ROOTFS_ID = `${DEBIAN_SUITE}-minbase-${createHash('sha256').update(EXTRA_PACKAGES.join(',')).digest('hex').slice(0, 6)}`;

// debootstrap calls chroot, mknod and friends from sbin, which a non-login root shell may lack.
const SBIN_PATH = ['/usr/local/sbin', '/usr/sbin', '/sbin'];

export function getDebianTarballPath(cacheDir) {
  return path.join(cacheDir, `debian-${ROOTFS_ID}.tar`);
}

/** The cached tarball's path, running debootstrap first when it is missing. */
export async function ensureDebianTarball({ cacheDir, mirror = DEBIAN_MIRROR, onProgress = () => {} }) {
  const suite = DEBIAN_SUITE;
  const tarball = getDebianTarballPath(cacheDir);
  if (await isFile(tarball)) return tarball;
  assertRoot('debootstrap');
  await mkdir(cacheDir, { recursive: true });
  const dir = await mkdtemp(path.join(cacheDir, `debootstrap-${suite}-`));
  // Written under a temporary name and renamed, so an interrupted run never leaves a truncated cache.
  const partial = `${tarball}.${process.pid}.partial`;
  try {
    onProgress({
      phase: 'debootstrap',
      message: `debootstrap --variant=minbase --include=${EXTRA_PACKAGES.join(',')} ${suite} (about half a minute)`,
    });
    await runDebootstrap({ dir, suite, mirror });
    await trimRootfs(dir);
    await execa('tar', ['-C', dir, '--numeric-owner', '-cf', partial, '.']);
    await rename(partial, tarball);
  } finally {
    await rm(dir, { recursive: true, force: true });
    await rm(partial, { force: true });
  }
  return tarball;
}

async function runDebootstrap({ dir, suite, mirror }) {
  const env = { PATH: [...SBIN_PATH, process.env.PATH].join(':'), DEBIAN_FRONTEND: 'noninteractive' };
  try {
    await execa('debootstrap', ['--variant=minbase', `--include=${EXTRA_PACKAGES.join(',')}`, suite, dir, mirror], {
      env,
      all: true,
    });
  } catch (cause) {
    const missing = cause.code === 'ENOENT';
    throw new LabError(
      'ERR_IMAGE_BUILD',
      missing ? 'debootstrap is not installed' : `debootstrap ${suite} failed: ${lastLines(cause.all)}`,
      {
        hint: missing
          ? 'Install it with `apt-get install -y debootstrap` (or run `node scripts/setup-engine.js` as root).'
          : `Check that ${mirror} is reachable from this machine, then run again.`,
        cause,
      },
    );
  }
}

// Downloaded packages and package lists (80 MB) serve only apt, which never runs in a workload container.
async function trimRootfs(dir) {
  const removable = [
    ['var/cache/apt/archives', (name) => name.endsWith('.deb')],
    ['var/cache/apt', (name) => name.endsWith('.bin')],
    ['var/lib/apt/lists', (name) => name !== 'partial' && name !== 'lock'],
  ];
  for (const [sub, isRemovable] of removable) {
    const names = await readdir(path.join(dir, sub)).catch(() => []);
    await Promise.all(names.filter(isRemovable).map((name) => rm(path.join(dir, sub, name), { force: true })));
  }
}

export function assertRoot(what) {
  if (process.getuid?.() === 0) return;
  throw new LabError(
    'ERR_IMAGE_BUILD',
    `Building a base image needs root (${what} creates device nodes and files owned by other users)`,
    {
      hint: 'Run `node-threads-lab images` as root once; later runs only need access to the Docker engine.',
    },
  );
}

async function isFile(file) {
  return stat(file).then(
    (info) => info.isFile(),
    () => false,
  );
}

function lastLines(text = '', count = 5) {
  return text.trim().split('\n').slice(-count).join('\n');
}
