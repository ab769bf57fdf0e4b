// What a service's deployment files say about its CPU and memory: the files named (--from), else those found in
// its project (find-manifests.js), each read (read-manifest.js). Which containers are the service's, and so its
// budgets, is runner/service/deployment.js's to choose (budgets.js combines them).
import path from 'node:path';
import { findManifestFiles, findProjectRoot } from './find-manifests.js';
import { readManifest } from './read-manifest.js';

/**
 * @param {object} options
 * @param {string[]} [options.from]  files to read (absolute), instead of looking
 * @param {string} options.start     where to look from: the module's folder
 * @param {string} options.folder    the experiments file's folder: the paths comments show are relative to it
 * @returns {{ looked: string|null, files: string[], sources: object[], services: object[], warnings: object[] }}
 *   looked: the folder searched (null with --from); files: those read; both relative to `folder`
 */
export function readDeployment({ from = [], start, folder }) {
  const named = from.length > 0;
  const looked = named ? null : findProjectRoot(start, { ceiling: folder });
  const files = named ? from : findManifestFiles(looked, { along: start });
  const shown = (file) => toPosix(path.relative(folder, file)) || '.';
  const sources = [];
  const services = [];
  const warnings = [];
  for (const file of files) {
    const read = readManifest(file, { shown: shown(file), named });
    sources.push(...read.sources);
    services.push(...read.services);
    warnings.push(...read.warnings);
  }
  return { looked: looked && shown(looked), files: files.map(shown), sources, services, warnings };
}

function toPosix(file) {
  return file.split(path.sep).join('/');
}
