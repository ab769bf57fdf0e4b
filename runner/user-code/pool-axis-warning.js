// An axis that can change nothing the code does: a matrix that varies uv_threadpool_size for user code none of
// whose own files calls anything that runs on libuv's pool (pool-calls.js). Said at `plan`, never a refusal: a
// package the code imports may use the pool (a native addon such as bcrypt), and the lab does not read packages.
import { formatPath } from '../config/diagnostics/paths.js';
import { findPoolCalls } from './pool-calls.js';

/**
 * @param {object[]} targets  check-user-code.js's, one per cell that runs a user module: { experiment, hostFile,
 *   hostRoot, shown, pool } (pool: the cell's uv_threadpool_size, undefined when unset)
 * @param {{ file?: string, locate?: Function }} config
 * @param {{ strip?: Function }} [reader]
 * @returns {object[]}  warnings, as plan-warnings.js's
 */
export function findIdlePoolAxes(targets, config, { strip } = {}) {
  const read = new Map();
  const experiments = [...new Set(targets.map((target) => target.experiment))];
  return experiments.flatMap((experiment) => {
    const own = targets.filter((target) => target.experiment === experiment);
    const values = [...new Set(own.map((target) => target.pool ?? 'unset'))];
    if (values.length < 2) return [];
    const modules = [...new Map(own.map((target) => [target.hostFile, target])).values()];
    const found = modules.map((target) => {
      if (!read.has(target.hostFile))
        read.set(target.hostFile, findPoolCalls(target.hostFile, { root: target.hostRoot, strip }));
      return read.get(target.hostFile);
    });
    // A file that could not be read (no parse, too deep) may hold the calls: nothing is said then.
    if (found.some((each) => each.calls.length > 0 || each.unread.length > 0)) return [];
    const packages = [...new Set(found.flatMap((each) => each.packages))];
    const files = found.reduce((count, each) => count + each.files.length, 0);
    const path = ['experiments', experiment, 'matrix', 'uv_threadpool_size'];
    return [
      {
        file: config.file,
        ...config.locate?.(path, { key: true }),
        path: formatPath(path),
        message:
          `uv_threadpool_size varies (${values.join(', ')}), but no call in ${modules.map((target) => target.shown).join(', ')}` +
          `${files > modules.length ? ` or the ${files - modules.length} files of yours it imports` : ''} runs on libuv's pool ` +
          '(async crypto, zlib, fs, dns.lookup): the axis can change nothing your code does' +
          (packages.length > 0
            ? `, unless a package it imports uses the pool (not read: ${packages.join(', ')}; a native addon such as bcrypt does)`
            : ''),
        hint: 'remove uv_threadpool_size from the matrix, or keep it to show that it changes nothing',
      },
    ];
  });
}
