// docs/architecture.md held against the tree: its table of rooms names every folder of runner/ (a row of its own, or
// named in its parent's row: `rootfs/` in docker/images/'s), every room and file it lists exists, and every module a
// row names (`summary.js`, `estimate/run-times.js`) is in that room, so a module that moves takes its row along.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DOC = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');

/** The table's rows: [{ rooms: ['runner/index.js', 'runner/api/'], holds: '…' }]. */
const ROWS = [...DOC.matchAll(/^\| (`runner\/[^|]+) \| ([^\n]+) \| [^|\n]+ \|$/gm)].map(([, first, holds]) => ({
  rooms: [...first.matchAll(/`([^`]+)`/g)].map(([, room]) => room),
  holds,
}));

function listFolders(dir) {
  return readdirSync(join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => [`${dir}/${entry.name}/`, ...listFolders(`${dir}/${entry.name}`)]);
}

test('the table was read', () => {
  expect(ROWS.length).toBeGreaterThan(20);
  expect(ROWS.map(({ rooms }) => rooms).flat()).toEqual(expect.arrayContaining(['runner/cells/', 'runner/cli.js']));
});

test('every room and file the table lists exists', () => {
  expect(ROWS.flatMap(({ rooms }) => rooms).filter((room) => !existsSync(join(ROOT, room)))).toEqual([]);
});

test('every folder of runner/ is in the table: a row of its own, or named in its parent folder’s row', () => {
  const listed = new Set(ROWS.flatMap(({ rooms }) => rooms));
  const namedInParent = (folder) => {
    const parent = folder.replace(/[^/]+\/$/, '');
    const name = folder.slice(parent.length);
    return ROWS.some(({ rooms, holds }) => rooms.includes(parent) && holds.includes(`\`${name}`));
  };
  expect(listFolders('runner').filter((folder) => !listed.has(folder) && !namedInParent(folder))).toEqual([]);
});

test("every module a row names is in that row's room (or at the path it gives from runner/)", () => {
  const misplaced = ROWS.flatMap(({ rooms, holds }) =>
    [...holds.matchAll(/`([\w./-]+\.(?:js|json))`/g)]
      .map(([, name]) => name)
      .filter(
        (name) =>
          !rooms.some((room) => existsSync(join(ROOT, room.endsWith('/') ? room : 'runner/', name))) &&
          !existsSync(join(ROOT, 'runner', name)) &&
          !existsSync(join(ROOT, name)),
      )
      .map((name) => `${rooms.join(', ')}: ${name}`),
  );
  expect(misplaced).toEqual([]);
});
