// The packages a user module imports, looked up as the container's Node.js will look them up: in the node_modules
// folders from the module's folder up to the mounted folder (nothing above it is in the container). A package with
// a binary of its own (a native addon) is named, since whether that binary loads on Linux only the engine can show.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// What a package that builds or ships a .node binary has: node-gyp's file, or one of the loaders of prebuilt ones.
const ADDON_LOADERS = [
  'node-gyp-build',
  'bindings',
  'prebuild-install',
  '@mapbox/node-pre-gyp',
  'node-pre-gyp',
  'node-addon-api',
  'nan',
];

/**
 * @param {string[]} names  package names ('lodash', '@scope/pkg')
 * @param {{ from: string, root: string }} where  the module's folder and the mounted folder
 * @returns {{ name: string, found: boolean, addon: boolean }[]}
 */
export function describePackages(names, { from, root }) {
  return names.map((name) => {
    const dir = findPackageDir(name, from, root);
    return { name, found: dir !== null, addon: dir !== null && isAddon(dir) };
  });
}

function findPackageDir(name, from, root) {
  for (let current = from; ; current = path.dirname(current)) {
    const candidate = path.join(current, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (current === root || path.relative(root, current).startsWith('..') || current === path.dirname(current))
      return null;
  }
}

function isAddon(dir) {
  if (existsSync(path.join(dir, 'binding.gyp')) || hasNodeFile(path.join(dir, 'build', 'Release'))) return true;
  try {
    const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const needs = { ...manifest.dependencies, ...manifest.optionalDependencies };
    return manifest.gypfile === true || ADDON_LOADERS.some((loader) => loader in needs);
  } catch {
    return false;
  }
}

function hasNodeFile(dir) {
  try {
    return readdirSync(dir).some((name) => name.endsWith('.node'));
  } catch {
    return false;
  }
}
