// The preflight's static half, on the host before any engine is reached (`plan`, and `run` before its Docker
// session): each user module of the plans (script's `file`, http's `app.file`) parses, and has the export
// `export:` names, where its source can tell (module-exports.js); a TypeScript file meets a Node.js that strips
// types. What only running it can tell — a dynamic export, whether its packages load in the container (a native
// addon built elsewhere), what a call does — is said in words and left to the preflight in the container
// (docker/runs/preflight-user-code.js), which imports the module for real.
import path from 'node:path';
import { resolveUserFile } from '../../images/workload/lib/user-files.js';
import { suggestName } from '../../images/workload/lib/suggest.js';
import { formatPath } from '../config/diagnostics/paths.js';
import { getWorkload } from '../domain/workloads.js';
import { LabError, LabErrors } from '../errors.js';
import { describePackages } from './user-packages.js';
import { SHAPES_IN_WORDS } from '../../images/workload/http/app-shape.js';

// Type stripping on by default (https://nodejs.org/api/typescript.html#type-stripping): from 23.6.0 and 22.18.0.
const STRIPS_TYPES = { from: 24, since: { 22: '22.18.0', 23: '23.6.0' } };
const NOT_A_FUNCTION = new Set(['number', 'string', 'boolean', 'object', 'bigint', 'undefined', 'listening server']);
// An http app may be an instance (a Fastify or Koa app: the source says `unknown`), but never a class to construct.
const NOT_AN_APP = new Set([...NOT_A_FUNCTION, 'class']);

/**
 * @param {object[]} plans  planExperiments(...)
 * @param {{ file?: string, locate?: Function, raw?: object }} config
 * @returns {Promise<{ modules: object[], warnings: object[] }>}  modules: one per file and export checked —
 *   { experiment, file, export, format, kind, engine: [what only the engine can check] }; warnings as
 *   plan-warnings.js's
 * @throws {LabError} exit 2: a module that does not parse, an export it does not have or that is no function,
 *   TypeScript for a Node.js that cannot strip types
 */
export async function checkUserCode(plans, config) {
  const targets = plans.flatMap((plan) => listTargets(plan, config));
  if (targets.length === 0) return { modules: [], warnings: [] };
  // Loaded only for user code: acorn is not on the way of a plan of built-in workloads.
  const reader = { ...(await import('./module-exports.js')), strip: await findTypeStripper() };
  const errors = [];
  const modules = [];
  const warnings = [];
  const seen = new Set();
  for (const target of targets) {
    // The Node.js major matters to TypeScript only; the exports are the file's, whichever cell runs it.
    const refusal = reader.isTypeScript(target.hostFile)
      ? checkTypeScript(target, locateKey(config, [...target.at, 'file']))
      : null;
    const key = refusal
      ? `${target.hostFile}\u0000${target.nodeMajor}`
      : `${target.hostFile}\u0000${target.exportName}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const checked = refusal ? { error: refusal } : checkTarget(target, reader, config);
    if (checked.error) errors.push(checked.error);
    if (checked.module) modules.push(checked.module);
    warnings.push(...(checked.warnings ?? []));
  }
  if (errors.length > 0) throw errors.length === 1 ? errors[0] : new LabErrors(errors);
  const { findIdlePoolAxes } = await import('./pool-axis-warning.js');
  return { modules, warnings: [...warnings, ...findIdlePoolAxes(targets, config, reader)] };
}

/** One module and export: { error } or { module, warnings }. */
function checkTarget(target, { readModuleExports, isTypeScript, strip }, config) {
  const where = (key) => locateKey(config, [...target.at, key]);
  if (isTypeScript(target.hostFile) && !strip) {
    const engine = [
      `its exports (this Node.js ${process.version} cannot strip types to read them; Node.js 22.13 and later can)`,
      ...engineChecks(target, []),
    ];
    return { module: describeModule(target, { format: 'TypeScript', kind: null, engine }) };
  }
  const read = readModuleExports(target.hostFile, { root: target.hostRoot, strip });
  if (read.syntaxError) return { error: syntaxError(target, read, where('file')) };
  const issue = checkExport(target, read, where);
  if (issue?.error) return { error: issue.error };
  const packages = describePackages(read.packages, { from: path.dirname(target.hostFile), root: target.hostRoot });
  const kind = read.names.get(target.exportName) ?? null;
  return {
    module: describeModule(target, {
      format: read.format === 'module' ? 'ES module' : 'CommonJS',
      kind,
      engine: engineChecks(target, packages, read, kind),
    }),
    warnings: [
      ...(issue?.warning ? [issue.warning] : []),
      ...packages.filter((pkg) => !pkg.found).map((pkg) => missingPackage(target, pkg, where('file'))),
    ],
  };
}

/** One entry per cell whose workload runs a user module: the file on the host and where its keys are in the file. */
function listTargets(plan, config) {
  const configDir = config.file ? path.dirname(config.file) : process.cwd();
  return plan.cells.flatMap((cell) => {
    const workload = getWorkload(cell.workload);
    if (!workload?.userCode || workload.external) return [];
    const given = workload.userCode.at.reduce((object, key) => object?.[key], cell.params);
    if (typeof given?.file !== 'string') return [];
    const { hostFile, hostRoot } = resolveUserFile(given, configDir);
    const at = ['experiments', plan.experiment.name, 'params', cell.workload, ...workload.userCode.at];
    const written = at.reduce((object, key) => object?.[key], config.raw ?? {});
    return [
      {
        experiment: plan.experiment.name,
        kind: workload.userCode.kind,
        hostFile,
        hostRoot,
        at,
        nodeMajor: cell.nodeMajor,
        exportName: given.export ?? 'default',
        exportWritten: written?.export !== undefined,
        shown: given.file,
        pool: cell.values.uv_threadpool_size,
      },
    ];
  });
}

// node:module's stripTypeScriptTypes (Node.js 22.13+, 23.2+): the types blanked out, positions kept.
export async function findTypeStripper() {
  const { stripTypeScriptTypes } = await import('node:module');
  if (typeof stripTypeScriptTypes !== 'function') return null;
  return (source) => {
    const emit = process.emitWarning;
    // It warns once per process that it is experimental; the plan is no place for that line.
    process.emitWarning = () => {};
    try {
      return stripTypeScriptTypes(source);
    } finally {
      process.emitWarning = emit;
    }
  };
}

function checkTypeScript(target, place) {
  const major = target.nodeMajor;
  if (major >= 22) return null;
  return new LabError(
    'ERR_CONFIG_INVALID',
    `${target.shown} is TypeScript, and the cell's Node.js ${major} cannot run it: Node.js strips types by default from 23.6 and 22.18 (${STRIPS_TYPES.from} and later always)`,
    {
      ...place,
      hint: `run it on Node.js ${STRIPS_TYPES.from} (\`node: [${STRIPS_TYPES.from}]\` in the matrix), or compile it to JavaScript and point \`file:\` at the .js file`,
    },
  );
}

function syntaxError(target, read, place) {
  const format = read.format === 'module' ? 'an ES module' : 'CommonJS';
  return new LabError(
    'ERR_CONFIG_INVALID',
    `${read.syntaxError.message} (read as ${format}, as the container's Node.js would load it)`,
    {
      file: displayPath(read.file),
      line: read.syntaxError.line,
      column: read.syntaxError.column,
      hint: `fix the module; it is \`file:\` of ${formatPath(target.at)}${place.line ? ` (${place.file}:${place.line}:${place.column})` : ''}`,
    },
  );
}

/**
 * The export is missing or no function: an error where the source says so for sure, a warning where it might be made
 * at run time.
 */
function checkExport(target, read, where) {
  const name = target.exportName;
  const place = target.exportWritten ? where('export') : { ...where('file'), path: formatPath(target.at) };
  const kind = read.names.get(name);
  const listed = [...read.names.keys()].sort();
  const exportsText = listed.length > 0 ? listed.join(', ') : 'none';
  if (kind !== undefined) {
    if (!(target.kind === 'app' ? NOT_AN_APP : NOT_A_FUNCTION).has(kind)) return null;
    return { error: notAFunction(target, name, kind, place) };
  }
  const close = suggestName(name, listed);
  const hint = close
    ? `did you mean \`${close}\`?`
    : 'set `export:` to one of its exports (`default` for export default / module.exports)';
  if (read.viaDefault) {
    return {
      warning: {
        ...place,
        message: `${target.shown} shows no export \`${name}\` in its source (its exports: ${exportsText}); it may be made when the module runs: ${read.dynamic.join('; ')}`,
        hint: close
          ? `did you mean \`${close}\`? The preflight in the container will tell`
          : 'the preflight in the container will tell before the first run',
      },
    };
  }
  return {
    error: new LabError(
      'ERR_CONFIG_INVALID',
      `${target.shown} has no export \`${name}\`; its exports: ${exportsText}`,
      { ...place, hint },
    ),
  };
}

function notAFunction(target, name, kind, place) {
  if (target.kind !== 'app') {
    return new LabError(
      'ERR_CONFIG_INVALID',
      `${target.shown}: export \`${name}\` is ${article(kind)} ${kind}, not a function`,
      { ...place, hint: 'write the name of an exported function in `export:`' },
    );
  }
  const why =
    kind === 'listening server'
      ? 'what listen() returns, a server already listening: the lab listens itself (its port, in every cluster process, not at all in worker threads)'
      : kind === 'class'
        ? 'a class: the lab calls a factory, it does not construct one'
        : `${article(kind)} ${kind}, not an app`;
  return new LabError('ERR_CONFIG_INVALID', `${target.shown}: export \`${name}\` is ${why}`, {
    ...place,
    hint:
      kind === 'listening server'
        ? 'export the app itself (or a function returning it) and call listen() only when the module is run directly'
        : `export ${SHAPES_IN_WORDS}, and write its name in \`export:\``,
  });
}

function missingPackage(target, pkg, place) {
  return {
    ...place,
    message: `${target.shown} imports \`${pkg.name}\`, which is in no node_modules inside the mounted folder ${target.hostRoot}: only that folder is in the container, so the import will fail there`,
    hint: '`npm install` it there, or set `root:` to the folder that holds its node_modules',
  };
}

/** What running the module alone can show, in words for the plan. */
function engineChecks(target, packages, read, kind) {
  const checks = [];
  if (/\.[mc]?ts$/.test(target.hostFile)) {
    const since = STRIPS_TYPES.since[target.nodeMajor];
    if (since)
      checks.push(
        `that the image's Node.js ${target.nodeMajor} is ${since} or later, which strips types (the lab's own images are)`,
      );
    checks.push('that it uses only types Node.js can strip (no enum, namespace or parameter properties)');
  }
  if (kind === 'unknown')
    checks.push(
      target.kind === 'app'
        ? `what \`${target.exportName}\` is: a handler, a factory, or a framework's app (only building it tells)`
        : `that \`${target.exportName}\` is a function (the source does not say what it is)`,
    );
  const addons = packages.filter((pkg) => pkg.addon).map((pkg) => pkg.name);
  if (addons.length > 0)
    checks.push(
      `that the native addon${addons.length > 1 ? 's' : ''} ${addons.map((name) => `\`${name}\``).join(', ')} load${addons.length > 1 ? '' : 's'} on Linux with Node.js ${target.nodeMajor} (a binary built on macOS or Windows does not)`,
    );
  const others = packages.filter((pkg) => pkg.found && !pkg.addon).length;
  checks.push(
    others > 0
      ? `that its ${others} other package${others > 1 ? 's load' : ' loads'} in the container`
      : 'that it loads in the container',
  );
  if (read?.dynamic.length > 0) checks.push(`what it makes at run time: ${read.dynamic.join('; ')}`);
  if (target.kind === 'function') checks.push('what a call returns (the user_<key> columns)');
  return checks;
}

function describeModule(target, { format, kind, engine }) {
  return { experiment: target.experiment, file: target.shown, export: target.exportName, format, kind, engine };
}

function locateKey(config, keyPath) {
  const { line, column } = config.locate?.(keyPath) ?? {};
  return { file: config.file, line, column, path: formatPath(keyPath) };
}

// Relative to the working directory where that is shorter (an editor and a terminal open it from there).
function displayPath(file) {
  const relative = path.relative(process.cwd(), file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}

function article(word) {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}
