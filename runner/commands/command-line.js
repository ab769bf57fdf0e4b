// What every subcommand (run, plan, report, claims, advise, compare, model, init, images) shares: argv parsing that
// turns a mistake into a usage error (exit 2) with a "did you mean", one place that prints an error once and sets the
// exit status, and telling whether this module is the program that was started (also through a symlink).
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { LabError } from '../errors.js';
import { suggestName } from '../../images/workload/lib/suggest.js';

/**
 * @param {string[]} argv
 * @param {{ options: object, usage: string, allowPositionals?: boolean, meant?: Record<string, string> }} spec
 *   meant: options people bring from other tools, each with what to do here (`dry-run` → "did you mean `plan`?")
 */
export function parseCommandLine(argv, { options, usage, allowPositionals = false, meant = {} }) {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true });
  } catch (cause) {
    throw new LabError('ERR_USAGE', describeParseError(cause, { options, usage, meant }), { hint: usage, cause });
  }
}

// Node's parseArgs words its errors for a program's author ("To specify a positional argument starting with a '-',
// place it at the end of the command after '--', as in '-- \"--json\"'): each is said here as a mistake of the
// person typing, with what to write instead.
function describeParseError(error, { options, usage, meant }) {
  const quoted = /'([^']*)'/.exec(error.message)?.[1] ?? '';
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return describeUnknownOption(quoted, options, meant);
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return describeOptionValue(error.message, options, usage);
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `Unexpected argument '${quoted}': ${commandOf(usage)} takes options only (they start with --)`;
    default:
      return error.message;
  }
}

/** `Unknown option '--onyl' (did you mean --only?)`, or what to do instead for another tool's option. */
function describeUnknownOption(typed, options, meant) {
  const bare = typed.replace(/^-+/, '').split('=')[0];
  if (Object.hasOwn(meant, bare)) return `Unknown option '${typed}': ${meant[bare]}`;
  const name = bare && suggestName(bare, Object.keys(options));
  return name ? `Unknown option '${typed}' (did you mean --${name}?)` : `Unknown option '${typed}'`;
}

// A value missing (`--only` last, or followed by another option), or given to a switch (`--json=yes`).
function describeOptionValue(message, options, usage) {
  const name = /--([\w-]+)/.exec(message)?.[1] ?? /'-(\w)/.exec(message)?.[1];
  const long = Object.hasOwn(options, name) ? name : Object.keys(options).find((key) => options[key].short === name);
  if (options[long]?.type === 'boolean') return `--${long} takes no value: write --${long} alone`;
  const placeholder = new RegExp(`--${long}[ =]([A-Z][A-Z_|.]*)`).exec(usage)?.[1] ?? 'VALUE';
  const next = /argument is ambiguous/.test(message) ? ', and the word after it is another option' : '';
  return `--${long} needs a value${next}: write --${long} ${placeholder}`;
}

// "plan" from "Usage: node-threads-lab plan [...]"; a usage without one is "this command".
function commandOf(usage) {
  return /node-threads-lab ([a-z]+)/.exec(usage)?.[1] ?? 'this command';
}

/**
 * True when `moduleUrl` is the program node was started with. npm link, a global install and npx
 * start it through a symlink in a bin folder, so both sides are compared as real paths.
 */
export function isEntryPoint(moduleUrl, argv1 = process.argv[1]) {
  if (!argv1) return false;
  try {
    return realpathSync(argv1) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}

/** Runs main(argv) → exit status; a LabError is printed as the person should read it, anything else with its stack. */
export async function runCommand(main, argv = process.argv.slice(2)) {
  process.stdout.on('error', ignoreClosedPipe);
  try {
    process.exitCode = await main(argv);
  } catch (error) {
    process.stderr.write(`${error instanceof LabError ? error.format() : error.stack}\n`);
    process.exitCode = error instanceof LabError ? error.exitCode : 1;
  }
}

// A reader that stops early (`node-threads-lab plan | head -1`) closes the pipe: the rest of stdout has nowhere to
// go, which is what the reader asked for, not an error. The command ends as it would have (a run goes on).
function ignoreClosedPipe(error) {
  if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
}
