// The official Node binary, taken from the npm package that wraps it: npm is the one registry this
// machine reaches, and the package holds the same build as nodejs.org's linux-x64 tarball.
import { chmod, copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { LabError } from '../../../errors.js';
import { NODE_PACKAGE } from './node-versions.js';

/** Put bin/node of `version` at /usr/local/bin/node inside `rootfs`; `workDir` holds the download briefly. */
export async function installNodeBinary({ version, rootfs, workDir }) {
  await mkdir(workDir, { recursive: true });
  const downloadDir = await mkdtemp(path.join(workDir, 'node-pack-'));
  try {
    const tarball = await packNodePackage({ version, downloadDir });
    await execa('tar', ['-xzf', tarball, '-C', downloadDir, 'package/bin/node']);
    const target = path.join(rootfs, 'usr/local/bin/node');
    await mkdir(path.dirname(target), { recursive: true });
    await copyFile(path.join(downloadDir, 'package/bin/node'), target);
    await chmod(target, 0o755);
  } finally {
    await rm(downloadDir, { recursive: true, force: true });
  }
}

async function packNodePackage({ version, downloadDir }) {
  const spec = `${NODE_PACKAGE}@${version}`;
  try {
    const { stdout } = await execa('npm', ['pack', spec, '--json', '--pack-destination', downloadDir], {
      cwd: downloadDir,
    });
    const [{ filename }] = JSON.parse(stdout);
    return path.join(downloadDir, filename);
  } catch (cause) {
    throw new LabError('ERR_IMAGE_BUILD', `Could not download ${spec} with npm`, {
      hint: `Check that \`npm view ${spec}\` works on this machine (registry reachable, version published).`,
      cause,
    });
  }
}
