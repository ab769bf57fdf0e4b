// docs/settling.md is what scripts/settling.js makes of the folders of docs/settling/: no figure typed by hand.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

test("every row of docs/settling.md comes from the script, and the script's rows are all there", async () => {
  const { stdout } = await execa('node', ['scripts/settling.js'], { cwd: ROOT });
  const page = readFileSync(`${ROOT}docs/settling.md`, 'utf8');
  const tableOf = (text) => text.split('\n').filter((line) => line.startsWith('|'));
  expect(tableOf(page)).toEqual(tableOf(stdout));
  expect(tableOf(stdout).length).toBeGreaterThan(2);
});
