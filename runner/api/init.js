// init(): a first experiments.yml for the person's own code (a function, an HTTP app, a service's start command or
// any command), written beside it. What it knows of the service is runner/service/'s description (its deployment's
// budget and memory, its pool calls, its knobs, its entry point); the app's routes and its answer to the request come
// from the built app, in the preflight's locked-down container, when an engine answers. This file turns the
// description into the file's input (init-words.js: the comments) and checks what it would write with the pipeline
// `plan` runs before writing it: a file that would not run is exit 2 with the flag that fixes it, nothing written.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse as parseShellWords } from 'shell-quote';
import { LabError } from '../errors.js';
import { EXPERIMENT_NAME_PATTERN, SCHEMA_FILE } from '../config/schema.js';
import { readService, chooseServiceRequest } from '../service/read-service.js';
import { readGivenRequest } from '../service/request.js';
import { formatInitFile } from './init-file.js';
import { readTraffic } from './init-traffic.js';
import { checkInitFile } from './init-check.js';
import { describeBudgets, describeKnobs, describeMemory, describeRequest, readGivenBudgets } from './init-words.js';
import { DEFAULT_CONFIG_FILE } from './plan.js';

const USAGE_HINT =
  'give one of: --script FILE [--export NAME], --http-app FILE [--export NAME], --start "node src/server.js", --command "PROGRAM ARGS" [--image IMAGE]';
const WRITTEN_BY = '# Written by `node-threads-lab init';
// The request of the first check, which is of the rest of the file: the request is checked once the app answers it.
const PROVISIONAL_REQUEST = { method: 'GET', path: '/', headers: {}, body: '', status: 200, lines: [''], others: [] };

/**
 * @param {object} options  exactly one of script, httpApp, start, command
 * @param {string} [options.script]      a module exporting the function (relative to the working directory)
 * @param {string} [options.httpApp]     a module exporting a (req, res) handler or a server factory
 * @param {string|true} [options.start]  the service's start command; true: its package.json's `start` script
 * @param {string} [options.command]     a command line, split as a shell would but never run by one
 * @param {string} [options.export]      the export (script, http app; default: default)
 * @param {string} [options.image]       the command's image (default: the lab's own, which has node, perl, sh)
 * @param {number} [options.port]        start: the port it listens on (default: read from its code)
 * @param {string} [options.request]     http: "POST /login", the request to measure (default: read from the app)
 * @param {string[]} [options.headers]   http: "name: value" each
 * @param {string} [options.body]        http: the request's body
 * @param {string} [options.bodyFile]    http: a file holding the request's body
 * @param {string} [options.container]   the container (Compose service) that serves the app, by name
 * @param {string} [options.config]      the file to write (default: experiments.yml)
 * @param {boolean} [options.force]      overwrite a file init wrote before
 * @param {Array<number|string>} [options.budgets]  CPU budgets (1.5, "1500m"): no deployment file is looked for
 * @param {string[]} [options.from]      deployment files to read (Kubernetes manifests, Compose files)
 * @param {{ count: number, source: string }} [options.cpus]  the engine's CPUs, instead of asking the engine (and
 *   then no engine is asked anything: the routes are not read)
 * @param {string} [options.invocation]  the command line quoted in the file's first line
 * @param {number|string} [options.rate]  http: the open-loop arrival rate to measure at (req/s)
 * @param {number|string} [options.sloP99]  http: the SLO's p99 (ms): the capacity search
 * @param {(line: string) => void} [options.onProgress]
 * @returns {Promise<{ file: string, kind: string, cpus: object, budgets: object|null, memory: string|null,
 *   request: object|null, warnings: object[], notices: string[], text: string }>}  notices: what was left out, for
 *   stderr
 */
export async function init(options = {}) {
  const kind = chooseKind(options);
  const traffic = readTraffic(options, kind);
  const file = path.resolve(options.config ?? DEFAULT_CONFIG_FILE);
  refuseExisting(file, options.force);
  const folder = path.dirname(file);
  const { module, code } = readCode(kind, options, folder);
  const engine = options.cpus ? null : await openEngine(options.onProgress);
  const cpus = options.cpus ?? engine?.cpus ?? fromThisMachine(engine?.why);
  const { service, budgets } = await learnService(kind, options, { folder, module, cpus });
  const input = { ...describeInput(kind, options, { folder, code, service, budgets, cpus }), ...traffic };
  const { text, request } = await composeFile(input, { kind, file, service, module, engine, options });
  writeFile(file, text, options.force);
  return {
    file,
    kind,
    cpus,
    budgets: budgets.values && { values: budgets.values.map((budget) => budget.cpus), from: budgets.summary },
    memory: service.deployment?.memory?.docker ?? null,
    // answered: the status the app gave when init sent it the request (null: no engine answered, not sent yet).
    request: request ? { method: request.method, path: request.path, answered: request.answered ?? null } : null,
    warnings: service.deployment?.warnings ?? [],
    notices: budgets.notices,
    text,
  };
}

// The code to measure: the module (a function's or an HTTP app's) or the command line; a start command has neither.
function readCode(kind, options, folder) {
  const module =
    kind === 'script' || kind === 'http-app'
      ? readModule(options[kind === 'script' ? 'script' : 'httpApp'], folder, options.export)
      : null;
  return { module, code: kind === 'command' ? readCommand(options) : (module ?? {}) };
}

// What the service folder tells (runner/service/): its deployment's budgets and memory, unless budgets are given.
async function learnService(kind, options, { folder, module, cpus }) {
  const given = readGivenBudgets(options.budgets, cpus);
  const { findTypeStripper } = await import('../user-code/check-user-code.js');
  const service = readService({
    form: { script: 'script', 'http-app': 'app', start: 'start', command: 'command' }[kind],
    folder,
    module,
    start: typeof options.start === 'string' ? options.start : undefined,
    port: options.port,
    from: (options.from ?? []).map((each) => path.resolve(each)),
    readDeployment: !given,
    container: options.container,
    strip: await findTypeStripper(),
  });
  return { service, budgets: describeBudgets(service.deployment, given, cpus) };
}

// The file's input (init-file.js) but its request, which the app's routes decide (readRequest).
function describeInput(kind, options, { folder, code, service, budgets, cpus }) {
  return {
    kind,
    name: nameExperiment(kind === 'script' || kind === 'command' ? code.base : path.basename(service.root)),
    invocation: options.invocation ?? 'node-threads-lab init',
    schema: referSchema(folder),
    cpus,
    budgets: budgets.values ? budgets : undefined,
    notes: budgets.notes,
    memory: describeMemory(service.deployment?.memory),
    knobs: describeKnobs(service, kind, budgets.values ?? null, cpus),
    start: kind === 'start' ? describeStart(service, folder) : undefined,
    ...code,
  };
}

// The file's text, checked as `plan` would check it: what `plan` would refuse (the schema, the module's export)
// first, before an engine builds anything; then, for an HTTP app, the request the app answers; then the whole file.
async function composeFile(input, { kind, file, service, module, engine, options }) {
  const { cpus } = input;
  await checkInitFile(formatInitFile({ ...input, request: PROVISIONAL_REQUEST }), { file, cpus });
  const http =
    kind === 'http-app' || kind === 'start'
      ? await readRequest(service, module, engine?.inspect ? engine : null, options)
      : null;
  if (http) await http.check();
  const text = http ? formatInitFile({ ...input, request: http.request }) : formatInitFile(input);
  await checkInitFile(text, { file, cpus });
  return { text, request: http?.request ?? null };
}

// The request to measure: the built app's routes (in the preflight container), then its answer to the request,
// which must be 2xx before the file is written. Without an engine: the request given, or GET /, said in the file.
async function readRequest(service, module, engine, options) {
  const given = readGivenRequest(options);
  const mount = module?.root ?? service.root;
  const spec = module
    ? { kind: 'app', mount, file: toContainerPath(module.absolute, mount), export: module.exportName }
    : { kind: 'start', mount, ...describeStartSpec(service) };
  const table = engine ? (await engine.inspect({ ...spec, routes: true })).routes : null;
  const chosen = chooseServiceRequest(service, table, given, mount);
  const request = describeRequest(chosen, { service, table, engine });
  const check = async () => {
    if (!engine) return;
    const { answer } = await engine.inspect({ ...spec, request: pickRequest(request) });
    if (answer && answer.status >= 200 && answer.status < 300) {
      // The file expects what the app gave (201 for a create), and init says it sent it.
      request.status = answer.status;
      request.answered = answer.status;
      return;
    }
    throw new LabError(
      'ERR_USAGE',
      `${request.method} ${request.path} answered ${answer?.status ?? 'nothing'}${answer?.firstLine ? `: ${answer.firstLine}` : ''}; a file measuring it would measure that answer`,
      {
        hint: `name a request your app serves: --request "METHOD /path"${request.method === 'GET' ? '' : ', with the body it needs: --body \'{"…": "…"}\' or --body-file FILE'}; nothing was written`,
      },
    );
  };
  return { request, check };
}

function pickRequest({ method, path: route, headers, body }) {
  return { method, path: route, headers, body };
}

// The start command's spec for the preflight container: as a run starts it.
function describeStartSpec(service) {
  const port = service.entry.port;
  if (!port)
    throw new LabError(
      'ERR_USAGE',
      `--start: which port \`${service.entry.command}\` listens on is not written in its code as a number`,
      { hint: 'name it: --port 3000' },
    );
  return { start: service.entry.command, port: port.port, readyTimeout: 60 };
}

function describeStart(service, folder) {
  const root = path.relative(folder, service.root).split(path.sep).join('/') || '.';
  return { command: service.entry.command, source: service.entry.source, port: service.entry.port, root };
}

// The engine init asks: its CPUs, and a container to read the app in. None answering is no error: the file says so.
async function openEngine(onProgress) {
  try {
    // Loaded only here: init is the one command besides a run that may ask an engine.
    const { openAppInspector } = await import('../docker/inspect-app.js');
    // An image already built is no news; building one (a first run) is.
    const inspector = await openAppInspector({
      onProgress: (line) => (/ (cached|base): /.test(line) ? null : onProgress?.(line)),
    });
    const count = Number.isInteger(inspector.cpus) && inspector.cpus > 0 ? inspector.cpus : null;
    return {
      cpus: count && { count, source: `docker info of the engine at ${inspector.host}` },
      inspect: inspector.inspect,
      why: count ? null : `the engine at ${inspector.host} gave no CPU count`,
    };
  } catch (error) {
    if (error instanceof LabError && error.code !== 'ERR_DOCKER_UNREACHABLE') throw error;
    return { cpus: null, inspect: null, why: `no engine answered: ${error.message.split('\n')[0]}` };
  }
}

function fromThisMachine(why) {
  return { count: os.availableParallelism(), source: `os.availableParallelism() of this machine (${why})` };
}

function toContainerPath(file, mount) {
  return path.posix.join('/lab/user', ...path.relative(mount, file).split(path.sep));
}

// The modeline editors read (yaml-language-server): the schema as installed, relative to the file when the package
// is inside its folder (node_modules/node-threads-lab/…, or this checkout), else its absolute path.
function referSchema(folder) {
  const relative = path.relative(folder, SCHEMA_FILE);
  return relative.startsWith('..') || path.isAbsolute(relative) ? SCHEMA_FILE : relative.split(path.sep).join('/');
}

function chooseKind({ script, httpApp, start, command, image }) {
  const given = [
    ['script', script],
    ['http-app', httpApp],
    ['start', start],
    ['command', command],
  ].filter(([, value]) => value !== undefined);
  if (given.length !== 1) {
    throw new LabError(
      'ERR_USAGE',
      given.length === 0
        ? 'init needs the code to measure'
        : `init writes a file for one kind of code, found ${given.map(([name]) => `--${name}`).join(' and ')}`,
      { hint: USAGE_HINT },
    );
  }
  if (image !== undefined && given[0][0] !== 'command')
    throw new LabError('ERR_USAGE', '--image goes with --command', {
      hint: "a function, an HTTP app or a start command runs in the lab's own image",
    });
  return given[0][0];
}

// Never over a file init did not write; over its own only with --force.
function refuseExisting(file, force) {
  if (!existsSync(file)) return;
  const own = readFileSync(file, 'utf8')
    .split('\n')
    .slice(0, 3)
    .some((line) => line.startsWith(WRITTEN_BY));
  if (force && own) return;
  throw new LabError(
    'ERR_FILE_EXISTS',
    `${file} exists already; init ${own ? 'wrote it, and overwrites it only with --force' : 'never overwrites a file it did not write'}`,
    {
      hint: own
        ? 'write it again with --force, or another one with --config FILE'
        : 'write another one with --config FILE (e.g. --config experiments-2.yml), or move this one away',
    },
  );
}

function readModule(given, folder, exportName = 'default') {
  const absolute = path.resolve(given);
  if (!existsSync(absolute) || !statSync(absolute).isFile()) {
    throw new LabError('ERR_USAGE', `no file at ${absolute}`, {
      hint: 'name the module that exports your code, relative to the current folder',
    });
  }
  const relative = path.relative(folder, absolute);
  const inside = !relative.startsWith('..') && !path.isAbsolute(relative);
  return {
    file: relative.split(path.sep).join('/'),
    exportName,
    mountHere: inside,
    base: path.basename(absolute, path.extname(absolute)),
    absolute,
    // The folder the container mounts: this one (`root: .`) or the module's own.
    root: inside ? folder : path.dirname(absolute),
  };
}

function readCommand({ command, image }) {
  // `$NAME` stays as written: no shell will expand it, and the file should say what runs.
  const words = parseShellWords(command, (name) => `$${name}`);
  if (words.length === 0) throw new LabError('ERR_USAGE', '--command is empty', { hint: USAGE_HINT });
  const special = words.find((word) => typeof word !== 'string');
  if (special) {
    const shown = special.op === 'glob' ? special.pattern : (special.op ?? `#${special.comment}`);
    throw new LabError('ERR_USAGE', `--command runs without a shell, so \`${shown}\` would mean nothing there`, {
      hint: 'name the program and its arguments (--command "perl sieve.pl 2000000"), or hand the line to a shell: --command "sh -c \'a | b\'"',
    });
  }
  return { argv: words, image, base: path.basename(words[0]) };
}

function nameExperiment(base) {
  const name = base.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '');
  return new RegExp(EXPERIMENT_NAME_PATTERN).test(name) ? name : 'my-code';
}

function writeFile(file, text, force) {
  try {
    // 'wx': created here or not at all, even if the file appeared since the check above (with --force: over init's).
    writeFileSync(file, text, { flag: force ? 'w' : 'wx' });
  } catch (cause) {
    if (cause.code === 'EEXIST') refuseExisting(file, force);
    throw new LabError('ERR_OUTPUT_UNWRITABLE', `cannot write ${file}: ${cause.message}`, {
      hint: 'write it elsewhere with --config FILE',
      cause,
    });
  }
}
