// Rewrites what docs/cli.md copies from the code: each subcommand's usage block (its --help text, under `### <name>`)
// and the exit status table (runner/commands/table.js EXIT_STATUSES). The prose around them stays as written;
// test/unit/docs/cli-docs.test.js fails while the two differ. Usage: node scripts/write-cli-docs.js
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EXIT_STATUSES, SUBCOMMANDS } from '../runner/commands/table.js';

const FILE = fileURLToPath(new URL('../docs/cli.md', import.meta.url));

let text = readFileSync(FILE, 'utf8');
for (const subcommand of SUBCOMMANDS) {
  const { USAGE } = await subcommand.load();
  const heading = text.indexOf(`### ${subcommand.name}\n`);
  if (heading < 0) throw new Error(`docs/cli.md has no "### ${subcommand.name}" section`);
  const start = text.indexOf('```text\n', heading);
  const end = text.indexOf('\n```', start + 8);
  text = `${text.slice(0, start)}\`\`\`text\n${USAGE}${text.slice(end)}`;
}
const tableStart = text.indexOf('| status | meaning |');
const tableEnd = text.indexOf('\n\n', tableStart);
const table = [
  '| status | meaning |',
  '| --- | --- |',
  ...EXIT_STATUSES.map(([status, meaning]) => `| ${status} | ${meaning} |`),
].join('\n');
text = `${text.slice(0, tableStart)}${table}${text.slice(tableEnd)}`;
writeFileSync(FILE, text);
console.log(`wrote ${FILE}`);
