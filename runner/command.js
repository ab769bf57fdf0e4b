// What every command line (matrix, report, compare) shares: argv parsing that turns a mistake into
// a usage error (exit 2), and one place that prints an error once and sets the exit status.
import { parseArgs } from 'node:util';
import { LabError } from './errors.js';

export function parseCommandLine(argv, { options, usage, allowPositionals = false }) {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true });
  } catch (cause) {
    throw new LabError('ERR_USAGE', cause.message, { hint: usage, cause });
  }
}

/** Runs main(argv) → exit status; a LabError is printed as the person should read it, anything else with its stack. */
export async function runCommand(main, argv = process.argv.slice(2)) {
  try {
    process.exitCode = await main(argv);
  } catch (error) {
    process.stderr.write(`${error instanceof LabError ? error.format() : error.stack}\n`);
    process.exitCode = error instanceof LabError ? error.exitCode : 1;
  }
}
