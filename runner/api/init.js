// init(): a first experiments.yml for the person's own code (a function, an HTTP app or any command), written
// beside it, checked by the same pipeline as `plan` before it is written, and never over an existing file.
import { existsSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseShellWords } from 'shell-quote';
import { LabError } from '../errors.js';
import { parseYaml, validateConfig } from '../config/load-config.js';
import { EXPERIMENT_NAME_PATTERN } from '../config/schema.js';
import { countEngineCpus } from './engine-cpus.js';
import { formatInitFile } from './init-file.js';
import { DEFAULT_CONFIG_FILE } from './plan.js';

const USAGE_HINT =
  'give one of: --script FILE [--export NAME], --http-app FILE [--export NAME], --command "PROGRAM ARGS" [--image IMAGE]';

/**
 * @param {object} options  exactly one of script, httpApp, command
 * @param {string} [options.script]      a module exporting the function (relative to the working directory)
 * @param {string} [options.httpApp]     a module exporting a (req, res) handler or a server factory
 * @param {string} [options.command]     a command line, split as a shell would but never run by one
 * @param {string} [options.export]      the export (script, http app; default: default)
 * @param {string} [options.image]       the command's image (default: the lab's own, which has node, perl, sh)
 * @param {string} [options.config]      the file to write (default: experiments.yml)
 * @param {{ count: number, source: string }} [options.cpus]  instead of asking the engine
 * @param {string} [options.invocation]  the command line quoted in the file's first line
 * @returns {Promise<{ file: string, kind: string, cpus: { count: number, source: string }, text: string }>}
 */
export async function init(options = {}) {
  const kind = chooseKind(options);
  const file = path.resolve(options.config ?? DEFAULT_CONFIG_FILE);
  refuseExisting(file);
  const folder = path.dirname(file);
  const code =
    kind === 'command'
      ? readCommand(options)
      : readModule(options[kind === 'script' ? 'script' : 'httpApp'], folder, options.export);
  const cpus = options.cpus ?? (await countEngineCpus());
  const text = formatInitFile({
    kind,
    name: nameExperiment(code.base),
    invocation: options.invocation ?? `node-threads-lab init`,
    cpus,
    ...code,
  });
  // The file must pass what `plan` checks; if not, the fault is this template's, and nothing is written.
  const { raw, locate } = parseYaml(text, file);
  validateConfig(raw, { file, locate, host: { cpus: Math.max(cpus.count, 1) } });
  writeExclusively(file, text);
  return { file, kind, cpus, text };
}

function chooseKind({ script, httpApp, command, image }) {
  const given = [
    ['script', script],
    ['http-app', httpApp],
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
      hint: "a function or an HTTP app runs in the lab's own image",
    });
  return given[0][0];
}

function refuseExisting(file) {
  if (!existsSync(file)) return;
  throw new LabError('ERR_FILE_EXISTS', `${file} exists already; init never overwrites a file`, {
    hint: 'write another one with --config FILE (e.g. --config experiments-2.yml), or move this one away',
  });
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

function writeExclusively(file, text) {
  try {
    // 'wx': created here or not at all, even if the file appeared since the check above.
    writeFileSync(file, text, { flag: 'wx' });
  } catch (cause) {
    if (cause.code === 'EEXIST') refuseExisting(file);
    throw new LabError('ERR_OUTPUT_UNWRITABLE', `cannot write ${file}: ${cause.message}`, {
      hint: 'write it elsewhere with --config FILE',
      cause,
    });
  }
}
