// README, docs/cli.md and --help say the same thing: the README's command table names exactly the subcommands the
// CLI knows, docs/cli.md holds every subcommand's --help text as it is and the exit status table as the code has it.
import { readFileSync } from 'node:fs';
import { EXIT_STATUSES, SUBCOMMANDS } from '../../../runner/commands/table.js';

const read = (file) => readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8');
const section = (text, heading) =>
  text.slice(text.indexOf(heading), text.indexOf('\n## ', text.indexOf(heading) + heading.length));
const NAMES = SUBCOMMANDS.map(({ name }) => name).sort();

/** `node-threads-lab X` in the first column of a Markdown table: X, `[run]` read as run. */
function listTableCommands(text) {
  return [...new Set([...text.matchAll(/^\| `node-threads-lab \[?([a-z]+)/gm)].map(([, name]) => name))].sort();
}

test("the README's command table names every subcommand, and no other", () => {
  expect(listTableCommands(section(read('README.md'), '## Commands'))).toEqual(NAMES);
});

test("docs/cli.md's command table too", () => {
  expect(listTableCommands(read('docs/cli.md'))).toEqual(NAMES);
});

test("docs/cli.md holds each subcommand's --help text, word for word", async () => {
  const doc = read('docs/cli.md');
  for (const subcommand of SUBCOMMANDS) {
    const { USAGE } = await subcommand.load();
    expect(doc).toContain(`### ${subcommand.name}\n`);
    expect(doc).toContain(`\`\`\`text\n${USAGE}\n\`\`\``);
  }
});

test("docs/cli.md's exit status table is the code's, the one table", () => {
  const rows = [...section(read('docs/cli.md'), '## Exit status').matchAll(/^\| ([^|]+) \| ([^|]+) \|$/gm)].map(
    ([, status, meaning]) => [status.trim(), meaning.trim()],
  );
  expect(rows.filter(([status]) => status !== 'status' && !/^-+$/.test(status))).toEqual(EXIT_STATUSES);
});
