#!/usr/bin/env node
// `node-threads-lab COMMAND [options]`: picks the subcommand (commands/table.js), which parses its arguments, calls
// the API (index.js) and prints. Alone, or with --help, it prints the commands; `help COMMAND` is `COMMAND --help`.
// Exit statuses: commands/table.js EXIT_STATUSES.
import { readFileSync } from 'node:fs';
import { LabError } from './errors.js';
import { isEntryPoint, runCommand } from './commands/command-line.js';
import { suggestName } from '../images/workload/lib/suggest.js';
import { readCallerPaths } from './commands/caller-paths.js';
import { findSubcommand, formatTopHelp, SUBCOMMANDS } from './commands/table.js';

const PACKAGE = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// Options people bring from other tools, or from before every command was named, and the command they meant.
const MEANT_COMMANDS = { 'dry-run': 'plan', plan: 'plan' };

export async function main(argv, { stdout = process.stdout, stderr = process.stderr, paths = readCallerPaths() } = {}) {
  const [first, ...rest] = argv;
  const version = `${PACKAGE.name} ${PACKAGE.version}`;
  if (first === undefined || first === '--help' || first === '-h' || (first === 'help' && rest.length === 0)) {
    stdout.write(`${formatTopHelp()}\n`);
    return 0;
  }
  if (first === '--version' || first === '-v') {
    stdout.write(`${version}\n`);
    return 0;
  }
  // `help plan` is `plan --help`.
  const [name, args] = first === 'help' ? [rest[0], ['--help']] : [first, rest];
  const named = findSubcommand(name);
  if (!named) throw name.startsWith('-') ? noCommand(argv) : unknownCommand(name);
  const { main: runSubcommand } = await named.load();
  return runSubcommand(args, { stdout, stderr, paths, version });
}

function unknownCommand(word) {
  const names = SUBCOMMANDS.map(({ name }) => name);
  const close = suggestName(word, [...names, 'matrix', 'dry-run']);
  const meant = { matrix: 'run', 'dry-run': 'plan' }[close] ?? close;
  return new LabError(
    'ERR_USAGE',
    `Unknown command '${word}'${meant ? ` (did you mean \`node-threads-lab ${meant}\`?)` : ''}`,
    { hint: `commands: ${names.join(', ')}; node-threads-lab --help says what each does` },
  );
}

// Options with no command before them: name the command (a matrix is `run`, as `npm run matrix` says).
function noCommand(argv) {
  const option = argv[0].replace(/^-+/, '').split('=')[0];
  const command = MEANT_COMMANDS[option] ?? 'run';
  const rest = command === 'run' ? argv : argv.slice(1);
  return new LabError(
    'ERR_USAGE',
    `No command before '${argv[0]}' (did you mean \`node-threads-lab ${[command, ...rest].join(' ')}\`?)`,
    {
      hint: `commands: ${SUBCOMMANDS.map(({ name }) => name).join(', ')}; node-threads-lab --help says what each does`,
    },
  );
}

if (isEntryPoint(import.meta.url)) runCommand(main);
