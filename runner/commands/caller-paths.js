// Which folder a path on the command line is relative to. Started as a bin (installed, npx, npm link), everything
// is relative to the folder it was started in. Started by `npm run matrix|plan|report|...` in this package, npm
// has moved to the package folder first and keeps the folder the person typed in as INIT_CWD: the paths they
// typed are relative to that folder (as their shell completed them), while what they did not type —
// experiments.yml, results/, compare.csv — is the package's own, as `npm run` has always meant. A person's own
// package script that calls the bin gets the bin's rule: npm runs it in their package folder, where its paths point.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LabError } from '../errors.js';
import { listResultsFolders } from '../results/results-folders.js';

const PACKAGE_DIR = fileURLToPath(new URL('../../', import.meta.url));
const PACKAGE_NAME = 'node-threads-lab';

/**
 * @param {{ env?: object, cwd?: string, packageDir?: string }} [where]
 * @returns {{ typed: string, defaults: string, npmScript: boolean }}  typed: the base of paths given on the command
 *   line; defaults: the base of the default files and folders; npmScript: started by `npm run` in this package
 */
export function readCallerPaths({ env = process.env, cwd = process.cwd(), packageDir = PACKAGE_DIR } = {}) {
  // Only the scripts that are this command by another name: `npm test` also runs here, and what its tests start
  // is the bin, started in the package folder.
  const npmScript = Boolean(
    NPM_SCRIPTS.has(env.npm_lifecycle_event) &&
    env.INIT_CWD &&
    env.npm_package_name === PACKAGE_NAME &&
    isSameFolder(cwd, packageDir),
  );
  return { typed: npmScript ? env.INIT_CWD : cwd, defaults: cwd, npmScript };
}

/** A path typed on the command line, absolute; undefined stays undefined. */
export function resolveTyped(paths, given) {
  return given === undefined ? undefined : path.resolve(paths.typed, given);
}

/**
 * The results folders a command was given, absolute: exactly `count` of them (1: advise, claims; 2: compare), or at
 * least one without a count (report). Anything else is a usage error (exit 2) with the command's usage. With
 * `newest` (a stream: advise, claims, report), none given means the newest folder under results/ (the default
 * results root, as `run` writes it), named on that stream.
 */
export function resolveFolders(paths, positionals, { usage, count, newest }) {
  if (positionals.length === 0 && newest && (count === undefined || count === 1)) {
    return [findNewestFolder(paths, { usage, stream: newest })];
  }
  if (count === undefined && positionals.length === 0)
    throw new LabError('ERR_USAGE', 'no results folder given', { hint: usage });
  if (count !== undefined && positionals.length !== count) {
    throw new LabError(
      'ERR_USAGE',
      `expected ${count === 1 ? 'one results folder' : 'two results folders'}, found ${positionals.length}`,
      { hint: usage },
    );
  }
  return positionals.map((given) => resolveTyped(paths, given));
}

function findNewestFolder(paths, { usage, stream }) {
  const root = path.resolve(paths.defaults, 'results');
  const [newest] = listResultsFolders(root);
  if (!newest) {
    throw new LabError('ERR_USAGE', `no results folder given, and none under ${root}`, {
      hint: `name one (a folder \`node-threads-lab run\` wrote), or run a matrix first\n${usage}`,
    });
  }
  stream.write(`results folder: ${newest.dir} (the newest under ${root}; name a DIR for another)\n`);
  return newest.dir;
}

function isSameFolder(a, b) {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

// The package's npm scripts that are a subcommand by another name (package.json "scripts").
const NPM_ALIASES = {
  run: 'matrix',
  plan: 'plan',
  report: 'report',
  claims: 'claims',
  advise: 'advise',
  compare: 'compare',
  model: 'model',
  images: 'images',
};
const NPM_SCRIPTS = new Set(Object.values(NPM_ALIASES));

/**
 * A command to suggest, in the form this one was started: `npm run matrix -- --resume DIR` or `node-threads-lab run
 * --resume DIR`.
 */
export function formatCommand(paths, subcommand, args) {
  const alias = paths.npmScript ? NPM_ALIASES[subcommand] : undefined;
  return alias ? `npm run ${alias} -- ${args}` : `node-threads-lab ${subcommand} ${args}`;
}
