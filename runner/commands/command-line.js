// What every subcommand (run, plan, report, claims, compare, init, images) shares: argv parsing that turns a mistake
// into
// a usage error (exit 2) with a "did you mean", one place that prints an error once and sets the exit
// status, and telling whether this module is the program that was started (also through a symlink).
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
    throw new LabError('ERR_USAGE', suggestOption(cause, options, meant) ?? cause.message, { hint: usage, cause });
  }
}

/** `Unknown option '--onyl' (did you mean --only?)` for an unknown option close to a known one. */
function suggestOption(error, options, meant) {
  if (error.code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return undefined;
  const typed = /'(-{1,2}[^'=]+)/.exec(error.message)?.[1];
  const bare = typed?.replace(/^-+/, '');
  if (bare && Object.hasOwn(meant, bare)) return `Unknown option '${typed}': ${meant[bare]}`;
  const name = bare && suggestName(bare, Object.keys(options));
  return name ? `Unknown option '${typed}' (did you mean --${name}?)` : undefined;
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
