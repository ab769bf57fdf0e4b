// What a user's module exports, read from its source on the host (acorn's syntax tree, no code run), as the
// container's Node.js will see it: ES module or CommonJS by its extension, the nearest package.json inside the
// mounted folder, else its syntax (Node's module detection); each export with the kind of value it is where the
// source says (`export function`, `module.exports = {...}`), and a list of what the source leaves to run time
// (a computed `exports[name]`, `module.exports = makeApi()`, `export * from 'a-package'`). The preflight in the
// container (images/workload/preflight.js) imports the module for real; this is the half that needs no engine.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { parse } from 'acorn';
import { ancestor } from 'acorn-walk';

const PARSE_OPTIONS = { ecmaVersion: 'latest', locations: true, allowHashBang: true };
// The files whose source is read through a re-export (a .node addon or a .json file is not).
const SOURCE_FILE = /\.([mc]?js|[mc]?ts)$/;
// How deep `export * from` and `module.exports = require(...)` chains are followed.
const MAX_DEPTH = 8;

/**
 * @typedef {object} ModuleExports
 * @property {string} file
 * @property {'module'|'commonjs'} format
 * @property {Map<string, string>} names   export name → kind: function, class, number, string, boolean, object,
 *   bigint, undefined, listening server (what `x.listen(…)` returns), or unknown (the source does not say)
 * @property {string[]} dynamic   what only running the module can tell, in words ("`module.exports = api` (line 9)")
 * @property {boolean} viaDefault  a name may also be found on the default export's value (load-export.js looks
 *   there for CommonJS `module.exports = {...}` and an ES default object), and its keys are not all known
 * @property {string[]} packages  bare specifiers it imports or requires (not node: builtins)
 * @property {{ message: string, line: number, column: number }} [syntaxError]  then names is empty
 */

/**
 * @param {string} file  absolute path on the host
 * @param {{ root: string, strip?: (source: string) => string }} options  root: the folder mounted into the container
 *   (package.json files above it are not seen there); strip: TypeScript → JavaScript with the types blanked out
 *   (node:module's stripTypeScriptTypes, where the host's Node has it), for .ts, .mts and .cts files
 * @returns {ModuleExports}
 */
export function readModuleExports(file, { root, strip }, depth = 0, seen = new Set()) {
  seen.add(file);
  const parsed = parseUserModule(file, { root, strip });
  if (parsed.syntaxError)
    return {
      file,
      format: parsed.format,
      names: new Map(),
      dynamic: [],
      viaDefault: false,
      packages: [],
      syntaxError: parsed.syntaxError,
    };
  const read = parsed.format === 'module' ? readEsmExports(parsed.ast) : readCommonJsExports(parsed.ast);
  const found = {
    file,
    format: parsed.format,
    names: read.names,
    dynamic: read.dynamic,
    viaDefault: read.viaDefault,
    packages: listPackages(parsed.ast),
  };
  for (const { specifier, line, star } of read.reexports)
    mergeReexport(found, { specifier, line, star, root, strip, depth, seen });
  return found;
}

/**
 * The file's syntax tree as the container's Node.js would read it (see readModuleExports for `root` and `strip`).
 * @returns {{ format: 'module'|'commonjs', ast?: object, syntaxError?: { message, line, column, offset } }}
 */
export function parseUserModule(file, { root, strip }) {
  const text = readFileSync(file, 'utf8');
  const source = strip && isTypeScript(file) ? strip(text) : text;
  return parseModule(source, readFormatHint(file, root));
}

export function isTypeScript(file) {
  return /\.[mc]?ts$/.test(file);
}

/** 'module', 'commonjs', or null: decided by the syntax. */
function readFormatHint(file, root) {
  const extension = path.extname(file);
  if (extension === '.mjs' || extension === '.mts') return 'module';
  if (extension === '.cjs' || extension === '.cts') return 'commonjs';
  const type = findPackageType(path.dirname(file), root);
  return type === 'module' ? 'module' : type === 'commonjs' ? 'commonjs' : null;
}

// The nearest package.json's "type", looked for up to the mounted folder (inside the container nothing above it
// exists).
function findPackageType(dir, root) {
  for (let current = dir; ; current = path.dirname(current)) {
    const manifest = path.join(current, 'package.json');
    if (existsSync(manifest)) {
      try {
        return JSON.parse(readFileSync(manifest, 'utf8')).type ?? 'commonjs';
      } catch {
        return 'commonjs';
      }
    }
    if (current === root || path.relative(root, current).startsWith('..') || current === path.dirname(current))
      return null;
  }
}

// Node's detection (20.19+, 22.7+, every image's Node): a file that is no ES module by its name or package.json runs
// as CommonJS unless it only parses as an ES module and uses import, export, import.meta or top-level await.
function parseModule(source, hint) {
  const asModule = () => parse(source, { ...PARSE_OPTIONS, sourceType: 'module' });
  const asScript = () => parse(source, { ...PARSE_OPTIONS, sourceType: 'script', allowReturnOutsideFunction: true });
  if (hint === 'module') return tryParse(asModule, 'module');
  if (hint === 'commonjs') return tryParse(asScript, 'commonjs');
  const script = tryParse(asScript, 'commonjs');
  if (!script.syntaxError) return script;
  const module = tryParse(asModule, 'module');
  if (!module.syntaxError) return module;
  // Neither parses: the error of the reading that got further is the one that says what is wrong.
  return module.syntaxError.offset > script.syntaxError.offset ? module : script;
}

function tryParse(parseAs, format) {
  try {
    return { format, ast: parseAs() };
  } catch (error) {
    if (!(error instanceof SyntaxError) || !error.loc) throw error;
    return {
      format,
      syntaxError: {
        message: error.message.replace(/ \(\d+:\d+\)$/, ''),
        line: error.loc.line,
        column: error.loc.column + 1,
        offset: error.pos,
      },
    };
  }
}

// ----- ES modules

// What a module's export statements give, one statement at a time: `found` collects the names (name → kind), the
// exports whose names are decided at run time (`dynamic`, in words), the `export *` to follow, and whether a name may
// be a key of the default export (`viaDefault`).
function readEsmExports(ast) {
  const locals = readTopLevelBindings(ast);
  const found = { names: new Map(), dynamic: [], reexports: [], viaDefault: false };
  for (const node of ast.body) {
    if (node.type === 'ExportNamedDeclaration') readNamedExport(node, locals, found);
    else if (node.type === 'ExportDefaultDeclaration') readDefaultExport(node, locals, found);
    else if (node.type === 'ExportAllDeclaration') readExportAll(node, found);
  }
  return found;
}

// `export const a = …`, `export function f`, `export { a, b as c }`, `export { a } from './m.js'`.
function readNamedExport(node, locals, found) {
  if (node.declaration) for (const [name, kind] of readDeclared(node.declaration, locals)) found.names.set(name, kind);
  for (const specifier of node.specifiers) {
    const exported = nameOf(specifier.exported);
    const kind = node.source ? 'unknown' : (locals.get(nameOf(specifier.local)) ?? 'unknown');
    found.names.set(exported, kind);
    if (exported === 'default' && (kind === 'unknown' || kind === 'object')) {
      found.viaDefault = true;
      found.dynamic.push(
        `\`export { ${nameOf(specifier.local)} as default }\` (line ${node.loc.start.line}): a name may be a key of that value`,
      );
    }
  }
}

// `export default …`: a function, a class, an object literal (whose keys are names too) or any other value.
function readDefaultExport(node, locals, found) {
  const { declaration } = node;
  const kind =
    declaration.type === 'FunctionDeclaration'
      ? 'function'
      : declaration.type === 'ClassDeclaration'
        ? 'class'
        : kindOf(declaration, locals);
  found.names.set('default', kind);
  // `export default { handler }`: its keys are names too (load-export.js looks on the default object).
  if (declaration.type === 'ObjectExpression') {
    const keys = readObjectKeys(declaration, locals);
    for (const [name, value] of keys.names) if (!found.names.has(name)) found.names.set(name, value);
    found.dynamic.push(...keys.dynamic);
    found.viaDefault ||= keys.dynamic.length > 0;
  } else if (kind === 'unknown' || kind === 'object') {
    found.viaDefault = true;
    found.dynamic.push(
      `\`export default ${describeNode(declaration)}\` (line ${node.loc.start.line}): a name may be a key of that value`,
    );
  }
}

// `export * as ns from …` is one name; `export * from …` is every name of that module (followed later).
function readExportAll(node, found) {
  if (node.exported) found.names.set(nameOf(node.exported), 'object');
  else found.reexports.push({ specifier: node.source.value, line: node.loc.start.line, star: true });
}

function readDeclared(declaration, locals) {
  if (declaration.type === 'FunctionDeclaration') return [[declaration.id.name, 'function']];
  if (declaration.type === 'ClassDeclaration') return [[declaration.id.name, 'class']];
  return declaration.declarations.flatMap((declarator) =>
    declarator.id.type === 'Identifier'
      ? [[declarator.id.name, kindOf(declarator.init, locals)]]
      : listPatternNames(declarator.id).map((name) => [name, 'unknown']),
  );
}

// ----- CommonJS

function readCommonJsExports(ast) {
  const locals = readTopLevelBindings(ast);
  const names = new Map();
  const dynamic = [];
  const reexports = [];
  let whole = null;
  let wholeCount = 0;
  let viaDefault = false;
  ancestor(ast, {
    AssignmentExpression(node, _state, ancestors) {
      const line = node.loc.start.line;
      if (isModuleExports(node.left)) {
        wholeCount += 1;
        whole = {
          node: node.right,
          line,
          topLevel: ancestors.length === 3 && ancestors[1].type === 'ExpressionStatement',
        };
        return;
      }
      if (node.left.type !== 'MemberExpression' || !isExportsObject(node.left.object)) return;
      const name = propertyName(node.left);
      if (name === undefined) dynamic.push(`\`${describeNode(node.left)} = …\` (line ${line}): a computed name`);
      else names.set(name, kindOf(node.right, locals));
    },
    CallExpression(node) {
      const passed = node.arguments.filter((argument) => isExportsObject(argument));
      if (passed.length === 0) return;
      const [target, key] = node.arguments;
      const defines =
        describeNode(node.callee) === 'Object.defineProperty' &&
        isExportsObject(target) &&
        key?.type === 'Literal' &&
        typeof key.value === 'string';
      if (defines) names.set(key.value, 'unknown');
      else
        dynamic.push(`\`${describeNode(node.callee)}(${describeNode(passed[0])}, …)\` (line ${node.loc.start.line})`);
    },
  });
  if (wholeCount > 1 || (whole && !whole.topLevel)) {
    dynamic.push(
      `\`module.exports = …\` ${wholeCount > 1 ? `${wholeCount} times` : 'inside a block or function'} (line ${whole.line}): which one wins is decided at run time`,
    );
    return { names: new Map([...names, ['default', 'unknown']]), dynamic, reexports, viaDefault: true };
  }
  if (!whole) return { names: new Map([...names, ['default', 'object']]), dynamic, reexports, viaDefault };
  const value = whole.node;
  if (value.type === 'ObjectExpression') {
    const keys = readObjectKeys(value, locals);
    for (const [name, kind] of keys.names) names.set(name, kind);
    dynamic.push(...keys.dynamic);
    viaDefault = keys.dynamic.length > 0;
    names.set('default', 'object');
  } else if (isRequireCall(value)) {
    reexports.push({ specifier: value.arguments[0].value, line: whole.line, star: false });
    names.set('default', 'unknown');
  } else {
    const kind = kindOf(value, locals);
    names.set('default', kind);
    if (kind === 'unknown' || kind === 'object') {
      viaDefault = true;
      dynamic.push(`\`module.exports = ${describeNode(value)}\` (line ${whole.line}): its keys are known when it runs`);
    }
  }
  return { names, dynamic, reexports, viaDefault };
}

const isModuleExports = (node) =>
  node.type === 'MemberExpression' &&
  !node.computed &&
  node.object.type === 'Identifier' &&
  node.object.name === 'module' &&
  node.property.name === 'exports';
const isExportsObject = (node) => (node.type === 'Identifier' && node.name === 'exports') || isModuleExports(node);
/** `require('…')` with a literal: the one form a static reading can follow. */
export const isRequireCall = (node) =>
  node?.type === 'CallExpression' &&
  node.callee.type === 'Identifier' &&
  node.callee.name === 'require' &&
  node.arguments[0]?.type === 'Literal' &&
  typeof node.arguments[0].value === 'string';

function propertyName(member) {
  if (!member.computed) return member.property.name;
  return member.property.type === 'Literal' && typeof member.property.value === 'string'
    ? member.property.value
    : undefined;
}

// ----- shared

/**
 * `{ a, b: f, 'c': 1, ...rest, [key]: v }` → names a, b, c, and what cannot be known (the spread, the computed key).
 */
function readObjectKeys(object, locals) {
  const names = new Map();
  const dynamic = [];
  for (const property of object.properties) {
    const line = property.loc.start.line;
    if (property.type === 'SpreadElement') dynamic.push(`\`...${describeNode(property.argument)}\` (line ${line})`);
    else if (property.computed) dynamic.push(`\`[${describeNode(property.key)}]: …\` (line ${line}): a computed key`);
    else names.set(nameOf(property.key), property.kind === 'init' ? kindOf(property.value, locals) : 'unknown');
  }
  return { names, dynamic };
}

function readTopLevelBindings(ast) {
  const locals = new Map();
  for (const node of ast.body) {
    const declaration = node.type === 'ExportNamedDeclaration' ? node.declaration : node;
    if (!declaration) continue;
    if (declaration.type === 'FunctionDeclaration') locals.set(declaration.id.name, 'function');
    else if (declaration.type === 'ClassDeclaration') locals.set(declaration.id.name, 'class');
    else if (declaration.type === 'VariableDeclaration') {
      for (const { id, init } of declaration.declarations) {
        if (id.type === 'Identifier') locals.set(id.name, kindOf(init, new Map()));
      }
    }
  }
  return locals;
}

/** The kind of value an expression is, where its source says; 'unknown' where only running it tells. */
function kindOf(node, locals) {
  if (!node) return 'undefined';
  switch (node.type) {
    case 'FunctionExpression':
    case 'ArrowFunctionExpression':
      return 'function';
    case 'ClassExpression':
      return 'class';
    case 'ObjectExpression':
    case 'ArrayExpression':
      return 'object';
    case 'TemplateLiteral':
      return 'string';
    case 'Literal':
      if (node.regex || node.value === null) return 'object';
      return node.bigint !== undefined ? 'bigint' : typeof node.value;
    case 'Identifier':
      return node.name === 'undefined' ? 'undefined' : (locals.get(node.name) ?? 'unknown');
    case 'CallExpression':
      // `app.listen(3000)`: what a server's (or Express's, Koa's) listen() returns, a server already listening.
      return node.callee.type === 'MemberExpression' && propertyName(node.callee) === 'listen'
        ? 'listening server'
        : 'unknown';
    default:
      return 'unknown';
  }
}

function nameOf(node) {
  return node.type === 'Identifier' ? node.name : String(node.value);
}

function listPatternNames(pattern) {
  switch (pattern.type) {
    case 'Identifier':
      return [pattern.name];
    case 'ObjectPattern':
      return pattern.properties.flatMap((property) =>
        listPatternNames(property.type === 'RestElement' ? property.argument : property.value),
      );
    case 'ArrayPattern':
      return pattern.elements.filter(Boolean).flatMap(listPatternNames);
    case 'RestElement':
      return listPatternNames(pattern.argument);
    case 'AssignmentPattern':
      return listPatternNames(pattern.left);
    default:
      return [];
  }
}

/** A short text for an expression in a message: `module.exports`, `makeApi()`, `handlers`. */
function describeNode(node) {
  switch (node.type) {
    case 'Identifier':
      return node.name;
    case 'Literal':
      return JSON.stringify(node.value);
    case 'MemberExpression':
      return `${describeNode(node.object)}${node.computed ? `[${describeNode(node.property)}]` : `.${node.property.name}`}`;
    case 'CallExpression':
      return `${describeNode(node.callee)}(…)`;
    case 'NewExpression':
      return `new ${describeNode(node.callee)}(…)`;
    default:
      return '…';
  }
}

/** Every specifier the module imports, re-exports, requires or import()s with a literal, in the order it names them. */
export function listSpecifiers(ast) {
  const specifiers = [];
  const add = (source) => {
    if (source?.type === 'Literal' && typeof source.value === 'string') specifiers.push(source.value);
  };
  ancestor(ast, {
    ImportDeclaration: (node) => add(node.source),
    ExportNamedDeclaration: (node) => add(node.source),
    ExportAllDeclaration: (node) => add(node.source),
    ImportExpression: (node) => add(node.source),
    CallExpression: (node) => {
      if (isRequireCall(node)) add(node.arguments[0]);
    },
  });
  return specifiers;
}

/** Every bare specifier imported, re-exported, required or import()ed with a literal, builtins left out. */
function listPackages(ast) {
  return listSpecifiers(ast)
    .filter(isPackageSpecifier)
    .map(packageName)
    .filter((name, index, all) => all.indexOf(name) === index);
}

/** A bare specifier of a package: not relative, absolute, a URL or a builtin (node:fs, fs, fs/promises). */
export function isPackageSpecifier(specifier) {
  if (/^(\.|\/|node:|file:|data:)/.test(specifier)) return false;
  return !builtinModules.includes(specifier.split('/')[0]) && !builtinModules.includes(specifier);
}

/** 'lodash/fp' → 'lodash', '@scope/pkg/sub' → '@scope/pkg'. */
export function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

// `export * from './more.js'` adds the names of that module (but its default); `module.exports = require('./impl')`
// makes that module's exports these. A package, a file not found, or a chain too long: left to run time.
function mergeReexport(found, { specifier, line, star, root, strip, depth, seen }) {
  const what = star ? `\`export * from '${specifier}'\`` : `\`module.exports = require('${specifier}')\``;
  const target = /^\.\.?\//.test(specifier) ? resolveRelative(path.dirname(found.file), specifier, star) : null;
  const readable = target !== null && SOURCE_FILE.test(target);
  if (!readable || depth >= MAX_DEPTH || seen.has(target)) {
    const why =
      target === null
        ? specifier.startsWith('.')
          ? ': no such file'
          : ': a package'
        : readable
          ? ''
          : target.endsWith('.node')
            ? ': a native addon'
            : '';
    found.dynamic.push(`${what} (line ${line})${why}`);
    if (!star) found.viaDefault = true;
    return;
  }
  const other = readModuleExports(target, { root, strip }, depth + 1, seen);
  if (other.syntaxError) {
    found.dynamic.push(
      `${what} (line ${line}): ${path.basename(target)} does not parse (${other.syntaxError.message} at ${other.syntaxError.line}:${other.syntaxError.column})`,
    );
    found.viaDefault ||= !star;
    return;
  }
  for (const [name, kind] of other.names) {
    if (star && name === 'default') continue;
    if (!found.names.has(name) || found.names.get(name) === 'unknown') found.names.set(name, kind);
  }
  found.dynamic.push(...other.dynamic);
  found.viaDefault ||= other.viaDefault;
  found.packages.push(...other.packages.filter((name) => !found.packages.includes(name)));
}

// ES modules name the file exactly; require() also tries the extensions and the folder's index.
function resolveRelative(dir, specifier, exact) {
  const base = path.resolve(dir, specifier);
  const candidates = exact ? [base] : [base, `${base}.js`, `${base}.cjs`, path.join(base, 'index.js')];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile()) ?? null;
}
