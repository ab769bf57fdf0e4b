// Import the user's module from the read-only mount and pick the export that is their code. Each
// thread and process that runs tasks does this itself (a function cannot be sent between threads).
// What can go wrong here is the person's setup, so each failure says what to change.

import { pathToFileURL } from 'node:url';
import { WorkloadError } from '../workload-error.js';

// What dlopen says when a .node file is for another OS or CPU (a node_modules installed on macOS,
// Windows, or for arm64 on x64).
const FOREIGN_BINARY =
  /invalid ELF header|wrong ELF class|Exec format error|ELF file's phentsize|not a dynamic executable|file too short|cannot open shared object|mach-o|incompatible architecture/i;

/**
 * @param {{ file: string, export: string }} target
 * @param {{ anyValue?: boolean }} [options]  anyValue: an app's export may be an instance (a Fastify or Koa app, an
 *   http.Server) or a promise, not only a function (http/app-shape.js tells them apart); only a missing one fails here
 * @returns {Promise<Function|unknown>}
 */
export async function loadUserExport({ file, export: name }, { anyValue = false } = {}) {
  let namespace;
  try {
    namespace = await import(pathToFileURL(file).href);
  } catch (error) {
    throw explainImportError(error, file);
  }
  const found = pickExport(namespace, name);
  if (anyValue ? found === undefined : typeof found !== 'function') {
    const names = Object.keys(namespace).filter((key) => key !== 'default' || namespace.default !== undefined);
    throw new WorkloadError(
      'ERR_EXPORT_INVALID',
      `${shortPath(file)}: ${found === undefined ? `has no export \`${name}\`` : `export \`${name}\` is a ${typeof found}, not a function`}; ` +
        `its exports: ${names.length > 0 ? names.join(', ') : 'none'} (set \`export:\` to the function's name, \`default\` for export default / module.exports)`,
    );
  }
  return found;
}

function pickExport(namespace, name) {
  if (Object.hasOwn(namespace, name)) return namespace[name];
  // CommonJS `module.exports = { handler }`: the names the ESM loader could not see statically.
  const commonJs = namespace.default;
  return commonJs !== null && typeof commonJs === 'object' ? commonJs[name] : undefined;
}

export function explainImportError(error, file) {
  const text = `${error?.code ?? ''} ${error?.message ?? error}`;
  const addon = /(\/\S+\.node)\b/.exec(error?.message ?? '')?.[1];
  if (error?.code === 'ERR_DLOPEN_FAILED' || (addon && FOREIGN_BINARY.test(text))) return explainAddon(error, addon);
  if (error?.code === 'ERR_MODULE_NOT_FOUND' || error?.code === 'MODULE_NOT_FOUND') {
    return new WorkloadError(
      'ERR_USER_MODULE',
      `${shortPath(file)} could not be loaded: ${firstLine(error.message).replaceAll('/lab/user/', '')}. ` +
        "Only `root` (default: the file's folder) is mounted: set `root:` to the folder that holds its node_modules",
      { cause: error },
    );
  }
  return new WorkloadError(
    'ERR_USER_MODULE',
    `${shortPath(file)} failed while loading: ${firstLine(error?.stack ?? String(error)).replaceAll('/lab/user/', '')}`,
    { cause: error },
  );
}

// A native addon built for another platform: which package, and how to build it for Linux.
function explainAddon(error, addon) {
  const where = addon ? shortPath(addon) : 'a native addon';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(addon ?? '')?.[1];
  return new WorkloadError(
    'ERR_ADDON_UNLOADABLE',
    `the native addon ${pkg ? `of package \`${pkg}\` ` : ''}(${where}) does not load on Linux ${process.arch} with Node.js ${process.version}: ` +
      `${firstLine(error.message)}. It was built for another platform (a node_modules installed on macOS or Windows, say). ` +
      `Fix: install it for Linux inside a container, e.g. \`docker run --rm -v "$PWD":/w -w /w node:${process.versions.node.split('.')[0]} npm rebuild${pkg ? ` ${pkg}` : ''}\`, ` +
      'or keep a separate node_modules for the lab and point `root:` at it',
    { cause: error },
  );
}

function shortPath(file) {
  return file.replace(/^\/lab\/user\//, '');
}

function firstLine(text) {
  return String(text).split('\n')[0];
}
