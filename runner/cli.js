#!/usr/bin/env node
// `node-threads-lab [COMMAND] [options]`: picks the subcommand (commands/table.js; `run` when none is named), which
// parses its arguments, calls the API (index.js) and prints. Exit statuses: commands/table.js EXIT_STATUSES.
import { readFileSync } from 'node:fs';
import { LabError } from './errors.js';
import { isEntryPoint, runCommand } from './commands/command-line.js';
import { suggestName } from '../images/workload/lib/suggest.js';
import { readCallerPaths } from './commands/caller-paths.js';
import { findSubcommand, formatTopHelp, SUBCOMMANDS } from './commands/table.js';

const PACKAGE = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

export async function main(argv, { stdout = process.stdout, stderr = process.stderr, paths = readCallerPaths() } = {}) {
  const [first, ...rest] = argv;
  if (first === '--help' || first === '-h' || first === 'help') {
    stdout.write(`${formatTopHelp()}\n`);
    return 0;
  }
  const named = findSubcommand(first);
  // No command named: the options are run's (the default), as they were before there were subcommands.
  if (!named && first !== undefined && !first.startsWith('-')) throw unknownCommand(first);
  const { main: runSubcommand } = await (named ?? findSubcommand('run')).load();
  return runSubcommand(named ? rest : argv, { stdout, stderr, paths, version: `${PACKAGE.name} ${PACKAGE.version}` });
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

if (isEntryPoint(import.meta.url)) runCommand(main);
