// The base image's root filesystem: cached Debian minbase + one Node binary + the lab user,
// handed out as a tar stream so the caller can import it into any engine without a registry.
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { getCacheDir } from './cache-dir.js';
import { assertRoot, ensureDebianTarball } from './debian-rootfs.js';
import { addLabUser } from './lab-user.js';
import { installNodeBinary } from './node-binary.js';

/**
 * Build the root filesystem for `nodeVersion` in a scratch directory, call `consume(tarStream)` with it
 * and remove the directory afterwards, whatever happened.
 */
export async function withBaseRootfs({ nodeVersion, cacheDir = getCacheDir(), onProgress = () => {} }, consume) {
  assertRoot('extracting a root filesystem');
  const tarball = await ensureDebianTarball({ cacheDir, onProgress });
  const dir = await mkdtemp(path.join(cacheDir, `rootfs-node${nodeVersion}-`));
  try {
    await execa('tar', ['-C', dir, '--numeric-owner', '-xpf', tarball]);
    onProgress({ phase: 'node', message: `adding Node ${nodeVersion} and user lab (1000:1000)` });
    await installNodeBinary({ version: nodeVersion, rootfs: dir, workDir: cacheDir });
    await addLabUser(dir);
    return await consumeTar(dir, consume);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function consumeTar(dir, consume) {
  const tar = execa('tar', ['-C', dir, '--numeric-owner', '-cf', '-', '.'], { buffer: { stdout: false } });
  try {
    const [result] = await Promise.all([consume(tar.stdout), tar]);
    return result;
  } catch (error) {
    tar.kill();
    await tar.catch(() => {});
    throw error;
  }
}
