// What the lab learns from a service's folder, in one description, each fact with the file and line it came from:
// how production starts it (entry-point.js), the budget and memory limit of the container that serves it
// (deployment.js over manifests/), the calls of its code that run on libuv's pool (user-code/pool-calls.js), the
// knobs its code reads (knobs.js), and, once the built app's route table is read in a container (the caller's:
// this room runs no code and reaches no engine), the request to measure (request.js, reach.js). `init` turns the
// description into experiments.yml; `plan` prints the service part of it the file records.
import path from 'node:path';
import { LabError } from '../errors.js';
import { findProjectRoot } from '../manifests/find-manifests.js';
import { readDeployment } from '../manifests/read-deployment.js';
import { listPoolCalls } from '../user-code/pool-calls.js';
import { readOwnFiles } from '../user-code/own-files.js';
import { chooseServingContainers } from './deployment.js';
import { describeUnrunnable, findListenAtLoad, findListenPort, findStartFile, readStartScript } from './entry-point.js';
import { findKnobs } from './knobs.js';
import { findReachedCalls } from './reach.js';
import { chooseRequest } from './request.js';

/**
 * @param {object} input
 * @param {'script'|'app'|'start'|'command'} input.form
 * @param {string} input.folder   the experiments file's folder: the paths the description shows are relative to it
 * @param {{ absolute: string, root: string }} [input.module]  script, app: the module
 * @param {string} [input.start]  start: the command (--start); default: the package.json's `start` script
 * @param {number} [input.port]   start: --port
 * @param {string[]} [input.from]  deployment files named (--from), absolute; else looked for in the project
 * @param {boolean} [input.readDeployment]  false: read no deployment file (budgets given with --cpus, none named)
 * @param {string} [input.container]  --container
 * @param {Function} [input.strip]  TypeScript → JavaScript
 * @returns {object}  the description: { root, entry, code, pool, knobs, deployment }
 */
export function readService(input) {
  const { form, folder, module, strip } = input;
  const shown = (file) => path.relative(folder, file).split(path.sep).join('/') || '.';
  const base = module?.absolute ? path.dirname(module.absolute) : folder;
  const root = findProjectRoot(base, { ceiling: folder });
  const entry = readEntry(input, root, shown);
  const starts = [module?.absolute, entry.file && path.resolve(entry.root ?? root, entry.file)].filter(Boolean);
  const code = starts.length > 0 ? readOwnFiles([...new Set(starts)], { root: module?.root ?? root, strip }) : null;
  if (form === 'app') checkNotListening(code, module.absolute, entry, shown);
  if (form === 'start') entry.port = findPort(input.port, code, shown);
  return {
    folder,
    root,
    shown,
    entry,
    code,
    pool: code && {
      calls: code.trees.flatMap((tree) => listPoolCalls(tree.ast, tree.file)),
      files: code.trees.map((tree) => tree.file),
      packages: code.packages,
      unread: code.unread,
    },
    knobs: code ? findKnobs(code.trees) : { env: [], cluster: null, pools: [] },
    deployment: readServingDeployment(input, base),
  };
}

// The port a start command listens on: --port, else the one its code passes to listen().
function findPort(given, code, shown) {
  if (given !== undefined) return { port: given, env: null, given: true };
  const found = findListenPort(code?.trees ?? []);
  return found && { ...found, file: shown(found.file) };
}

// The deployment files (named with --from, else found beside the code) and the container among them that serves
// the app; none read when the budgets were given with --cpus and no file was named.
function readServingDeployment(input, base) {
  const named = input.from ?? [];
  if (input.readDeployment === false && named.length === 0) return null;
  const deployment = readDeployment({ from: named, start: base, folder: input.folder });
  return (
    deployment && {
      ...deployment,
      ...chooseServingContainers(deployment, { container: input.container, named: named.length > 0 }),
    }
  );
}

/**
 * The request to measure, from the built app's route table (read in a container) and what was given.
 * @param {object} service  readService's
 * @param {{ framework: string|null, routes: object[] }|null} table  handlers' files relative to the mounted folder
 * @param {object|null} given  request.js's readGivenRequest
 * @returns {ReturnType<typeof chooseRequest>}
 */
export function chooseServiceRequest(service, table, given, mountRoot) {
  const trees = new Map((service.code?.trees ?? []).map((tree) => [tree.file, tree.ast]));
  const routes = (table?.routes ?? []).map((route) => {
    const handlers = route.handlers.map((handler) => ({ ...handler, file: path.join(mountRoot, handler.file) }));
    return { ...route, handlers, reached: findReachedCalls(handlers, service.pool?.calls ?? [], trees) };
  });
  return chooseRequest(table && { ...table, routes }, given);
}

// The start command and its file: --start, else the package.json's `start` script (for `app`, what production
// runs around the module, read for its knobs: node:cluster, the variables it reads).
function readEntry({ form, start, module }, root, shown) {
  const script = readStartScript(root);
  const command = start ?? script?.command;
  if (form === 'start' && command === undefined)
    throw new LabError(
      'ERR_USAGE',
      `--start: no command given, and ${shown(path.join(root, 'package.json'))} has no \`start\` script`,
      {
        hint: 'give the command production starts your service with: --start "node src/server.js"',
      },
    );
  if (form === 'start') {
    const program = describeUnrunnable(command);
    if (program)
      throw new LabError(
        'ERR_USAGE',
        `--start: \`${command}\` runs ${program}, which the lab's image does not have (it has node and sh)`,
        { hint: `write the command ${program} would run in the end: --start "node src/server.js"` },
      );
  }
  const file = command ? findStartFile(command) : null;
  return {
    form,
    command: command ?? null,
    source:
      start !== undefined
        ? { given: '--start' }
        : script && { file: shown(path.join(root, script.file)), line: script.line },
    file,
    root,
    module: module && shown(module.absolute),
  };
}

// A module that listens when it is imported is a service to start, not an app to hand to the lab's harness.
function checkNotListening(code, file, entry, shown) {
  const tree = code?.trees.find((each) => each.file === file);
  const listens = tree && findListenAtLoad(tree.ast);
  if (!listens) return;
  const start = entry.command ?? `node ${shown(file)}`;
  throw new LabError(
    'ERR_USAGE',
    `--http-app ${shown(file)}: it calls listen() itself when imported (line ${listens.line}), and the lab must listen itself to serve it in its processes and threads`,
    {
      file: shown(file),
      line: listens.line,
      hint: `measure it as production starts it: init --start "${start}"; or name the module that builds the app without listening: init --http-app src/app.js --export buildApp`,
    },
  );
}
