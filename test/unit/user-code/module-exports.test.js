// What a user's module exports, read from its source as the container's Node.js will load it (ES module or CommonJS),
// and what the source leaves to run time. Fixtures: test/fixtures/own-code/exports/.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readModuleExports } from '../../../runner/user-code/module-exports.js';

const OWN = fileURLToPath(new URL('../../fixtures/own-code/', import.meta.url));
const read = (file, root = join(OWN, 'exports')) => readModuleExports(join(OWN, file), { root });
const named = (found) => Object.fromEntries(found.names);

test('ESM: export function, const, class, { a as b } and default, each with its kind', () => {
  const found = read('exports/esm.mjs');
  expect(found.format).toBe('module');
  expect(named(found)).toEqual({
    hashPassword: 'function',
    resize: 'function',
    LIMIT: 'number',
    Encoder: 'class',
    renamed: 'function',
    default: 'function',
  });
  expect([found.dynamic, found.viaDefault]).toEqual([[], false]);
});

test('ESM: export * from a sibling adds its names but its default; export { default as x } from names x', () => {
  const found = read('exports/reexport.mjs');
  expect([...found.names.keys()].sort()).toEqual([
    'Encoder',
    'LIMIT',
    'hashPassword',
    'mainAgain',
    'renamed',
    'resize',
  ]);
});

test('CommonJS: module.exports = { ... } and module.exports.x = …; the default is the object', () => {
  const found = read('exports/commonjs.cjs');
  expect(found.format).toBe('commonjs');
  expect(named(found)).toEqual({
    handler: 'function',
    options: 'object',
    version: 'string',
    serve: 'function',
    extra: 'function',
    default: 'object',
  });
});

test('a .js file with no package.json up to the mounted folder and no ESM syntax is CommonJS: exports.x, module.exports.y, exports["z"]', () => {
  const found = read('exports/exports-names.js');
  expect(found.format).toBe('commonjs');
  expect(named(found)).toEqual({ first: 'function', second: 'function', third: 'number', default: 'object' });
});

test('a .js file with ESM syntax is an ES module (Node\'s detection); a package.json "type" above the mounted folder is not seen', () => {
  const dir = mkdtempSync(join(tmpdir(), 'exports-'));
  writeFileSync(join(dir, 'package.json'), '{"type": "module"}');
  const inner = join(dir, 'inner');
  writeFileSync(join(dir, 'esm.js'), 'export const a = 1;\n');
  expect(readModuleExports(join(dir, 'esm.js'), { root: dir }).format).toBe('module');
  // Mounted from inner/, the module below it has no package.json in the container: CommonJS unless its syntax says
  // otherwise.
  mkdirSync(inner);
  writeFileSync(join(inner, 'plain.js'), 'exports.b = 2;\n');
  expect(readModuleExports(join(inner, 'plain.js'), { root: dir }).format).toBe('module');
  expect(readModuleExports(join(inner, 'plain.js'), { root: inner }).format).toBe('commonjs');
});

test("exports made at run time are said, and a name may then be on the default's value", () => {
  const found = read('exports/dynamic.cjs');
  expect(named(found)).toEqual({ default: 'unknown' });
  expect(found.viaDefault).toBe(true);
  expect(found.dynamic).toEqual(['`module.exports = makeApi(…)` (line 5): its keys are known when it runs']);
});

test('a syntax error is given with its line and column (1-based)', () => {
  expect(read('exports/broken.js').syntaxError).toMatchObject({ message: 'Unexpected token', line: 2, column: 29 });
});

test('packages imported (not node: builtins), and require() of a native addon left to run time', () => {
  expect(read('exports/uses-packages.mjs').packages).toEqual(['left-pad-not-installed']);
  expect(read('addon/uses-addon.js', join(OWN, 'addon')).packages).toEqual(['fake-addon']);
  const addon = read('addon/node_modules/fake-addon/index.js', join(OWN, 'addon'));
  expect(addon.dynamic).toEqual(["`module.exports = require('./build/Release/fake.node')` (line 1): a native addon"]);
});
