// A damaged results folder is exit 2 with the file and what is wrong, never a stack trace: every file of a real folder
// (test/fixtures/results/pbkdf2-waves) damaged in several ways — cut short, garbage bytes, ragged rows, wrong types,
// missing, written by a newer version — and read by every command that reads a folder (advise, claims, report, model,
// compare). Each damage runs through the CLI's main in this process, with the error printed as the CLI prints it
// (commands/command-line.js); one damage a command also runs as a child process, end to end.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { main } from '../../../runner/cli.js';
import { LabError } from '../../../runner/errors.js';
import { createRandom } from '../../../runner/plan/run-order.js';
import { readCallerPaths } from '../../../runner/commands/caller-paths.js';

const GOOD = fileURLToPath(new URL('../../fixtures/results/pbkdf2-waves', import.meta.url));
const CLI = fileURLToPath(new URL('../../../runner/cli.js', import.meta.url));
const random = createRandom(36);

// A text's lines, and the text again from them (runs.csv and tasks.csv end their rows with \r\n).
const rowsOf = (text) => text.split('\r\n');
const cutMidRow = (text, share) => {
  let at = Math.floor(text.length * share);
  // Never exactly after a line break: a file cut there is a whole, shorter file, which no reader can tell apart.
  while (text[at - 1] === '\n' || text[at] === '\r' || text[at] === '\n') at += 1;
  return text.slice(0, at);
};
const garbage = (length) =>
  Buffer.from(Array.from({ length }, () => Math.floor(random() * 256)))
    .toString('latin1')
    .replace(/[\r\n]/g, '\u0001');
const replaceField = (text, column, value, row = 3) => {
  const lines = rowsOf(text);
  const index = lines[0].split(',').indexOf(column);
  const fields = lines[row].split(',');
  fields[index] = value;
  lines[row] = fields.join(',');
  return lines.join('\r\n');
};
const editJson = (text, edit) => {
  const info = JSON.parse(text);
  edit(info);
  return JSON.stringify(info, null, 2);
};

/** Each damage: the file, how, whether it must be refused (exit 2) or may be read all the same (a whole file). */
const DAMAGES = [
  ['run.json', 'cut short', (text) => text.slice(0, Math.floor(text.length / 2))],
  ['run.json', 'garbage bytes', (text) => `${text.slice(0, 200)}${garbage(40)}${text.slice(240)}`],
  ['run.json', 'not an object', () => '[1, 2, 3]'],
  ['run.json', 'cells of the wrong type', (text) => editJson(text, (info) => (info.cells = 'all of them'))],
  ['run.json', 'a cell without its values', (text) => editJson(text, (info) => delete info.cells[0].values)],
  ['run.json', 'claims of the wrong type', (text) => editJson(text, (info) => (info.config.claims = { a: 1 }))],
  ['run.json', 'host CPUs as text', (text) => editJson(text, (info) => (info.host.cpus = 'two'))],
  ['run.json', 'a newer format', (text) => editJson(text, (info) => (info.format_version = 99))],
  ['runs.csv', 'cut short mid-row', (text) => cutMidRow(text, 0.6)],
  ['runs.csv', 'cut short in the last row', (text) => cutMidRow(text, 0.995)],
  ['runs.csv', 'garbage bytes over the header', (text) => `${garbage(120)}${text.slice(120)}`],
  ['runs.csv', 'garbage bytes and a stray quote', (text) => `${text.slice(0, 900)}"${garbage(30)}${text.slice(931)}`],
  [
    'runs.csv',
    'a row with a field missing',
    (text) =>
      rowsOf(text)
        .map((line, i) => (i === 5 ? line.replace(/,[^,]*$/, '') : line))
        .join('\r\n'),
  ],
  [
    'runs.csv',
    'a row with a field more',
    (text) =>
      rowsOf(text)
        .map((line, i) => (i === 7 ? `${line},extra` : line))
        .join('\r\n'),
  ],
  ['runs.csv', 'wall_ms as text', (text) => replaceField(text, 'wall_ms', 'fast')],
  ['runs.csv', 'repetition as text', (text) => replaceField(text, 'repetition', 'first')],
  ['runs.csv', 'warmup neither true nor false', (text) => replaceField(text, 'warmup', 'maybe')],
  ['runs.csv', 'an empty file', () => ''],
  ['tasks.csv', 'cut short mid-row', (text) => cutMidRow(text, 0.5)],
  ['tasks.csv', 'garbage bytes over the header', (text) => `${garbage(60)}${text.slice(60)}`],
  [
    'tasks.csv',
    'a row with a field missing',
    (text) =>
      rowsOf(text)
        .map((line, i) => (i === 9 ? line.replace(/,[^,]*$/, '') : line))
        .join('\r\n'),
  ],
  ['tasks.csv', 'duration_ms as text', (text) => replaceField(text, 'duration_ms', 'long')],
];
// Missing files: runs.csv is the folder; run.json and tasks.csv may be absent (an older or trimmed folder reports).
const MISSING = [
  ['runs.csv', true],
  ['run.json', false],
  ['tasks.csv', false],
];
const COMMANDS = [
  ['advise', (dir) => ['advise', dir]],
  ['claims', (dir) => ['claims', dir]],
  ['report', (dir) => ['report', dir]],
  ['model', (dir) => ['model', dir]],
  ['compare', (dir) => ['compare', GOOD, dir]],
];

function damagedCopy(file, damage) {
  const dir = mkdtempSync(join(tmpdir(), 'damaged-'));
  cpSync(GOOD, dir, { recursive: true });
  if (damage) writeFileSync(join(dir, file), damage(readFileSync(join(GOOD, file), 'latin1')), 'latin1');
  else rmSync(join(dir, file));
  return dir;
}

// What the CLI does with a command: its exit status, and the text it prints on stderr (commands/command-line.js).
async function runInProcess(argv) {
  const sink = () => ({
    text: '',
    write(chunk) {
      this.text += chunk;
      return true;
    },
  });
  const [stdout, stderr] = [sink(), sink()];
  try {
    const status = await main(argv, { stdout, stderr, paths: readCallerPaths() });
    return { status, stderr: stderr.text, error: null };
  } catch (error) {
    const printed = error instanceof LabError ? error.format() : error.stack;
    return { status: error instanceof LabError ? error.exitCode : 1, stderr: `${stderr.text}${printed}\n`, error };
  }
}

describe.each(DAMAGES)('%s %s', (file, how, damage) => {
  test.each(COMMANDS)('%s: exit 2, the file named, no stack trace', async (name, argv) => {
    const dir = damagedCopy(file, damage);
    const { status, stderr, error } = await runInProcess(argv(dir));
    expect(error).toBeInstanceOf(LabError);
    expect(status).toBe(2);
    expect(stderr).toContain(join(dir, file));
    expect(stderr).not.toMatch(/^\s+at /m);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe.each(MISSING)('%s missing', (file, refused) => {
  test.each(COMMANDS)('%s: read or refused in words, never a stack trace', async (name, argv) => {
    const dir = damagedCopy(file, null);
    const { status, stderr } = await runInProcess(argv(dir));
    expect(stderr).not.toMatch(/^\s+at /m);
    if (refused) {
      expect(status).toBe(2);
      expect(stderr).toContain('has no runs.csv');
    } else expect([0, 1, 3]).toContain(status);
    rmSync(dir, { recursive: true, force: true });
  });
});

test('a cut-short runs.csv names its line; a ragged row names its line; a newer folder says so', async () => {
  const cases = [
    [
      DAMAGES.find(([, how]) => how === 'cut short in the last row'),
      /runs\.csv:16: line 16 has \d+ fields where the header has 41: a ragged or cut-short row/,
    ],
    [
      DAMAGES.find(([, how]) => how === 'a row with a field missing'),
      /runs\.csv:6: line 6 has 40 fields where the header has 41/,
    ],
    [DAMAGES.find(([, how]) => how === 'wall_ms as text'), /runs\.csv:4: line 4: wall_ms is "fast", not a number/],
    [
      ['runs.csv', 'its last line break gone', (text) => text.replace(/\r\n$/, '')],
      /runs\.csv:16: the last row is cut short: line 16 ends without its line break/,
    ],
    [
      DAMAGES.find(([, how]) => how === 'a newer format'),
      /run\.json: written by a newer node-threads-lab \(results format 99; this version reads up to 1\)/,
    ],
    [DAMAGES.find(([, how]) => how === 'cells of the wrong type'), /run\.json: cells must be array/],
    [DAMAGES.find(([, how]) => how === 'cut short' && true), /run\.json: not valid JSON/],
  ];
  for (const [[file, , damage], message] of cases) {
    const dir = damagedCopy(file, damage);
    const { stderr } = await runInProcess(['advise', dir]);
    expect(stderr).toMatch(message);
    rmSync(dir, { recursive: true, force: true });
  }
});

test.each(COMMANDS)(
  'end to end, as a child process: %s of a folder with a corrupt run.json exits 2 in words',
  async (name, argv) => {
    const dir = damagedCopy('run.json', DAMAGES[0][2]);
    const { exitCode, stderr } = await execa('node', [CLI, ...argv(dir)], { reject: false });
    expect(exitCode).toBe(2);
    expect(stderr).toMatch(
      new RegExp(`^${join(dir, 'run.json').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: not valid JSON`, 'm'),
    );
    expect(stderr).not.toMatch(/^\s+at /m);
    rmSync(dir, { recursive: true, force: true });
  },
);
