// Which pool calls a route's handler reaches, read from the syntax trees (no code run): a pool call inside the
// handler's own function, or inside what it calls by name — a function or a constant of the same file
// (`const pbkdf2 = promisify(crypto.pbkdf2)`), or one another of the user's files exports (`import { hash } from
// './hash.js'`, `import * as auth from './auth.js'` then `auth.hash()`) — to a depth. The handler's place comes
// from the built app (V8's [[FunctionLocation]]: the position of its parameters), so the function is the innermost
// one there. Not scope-aware, as pool-calls.js: a name means what its file's declaration or import says.
import path from 'node:path';
import { ancestor, simple } from 'acorn-walk';
import { resolveOwnFile } from '../user-code/own-files.js';

const MAX_DEPTH = 8;
const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/**
 * @param {{ file: string, line: number, column: number }[]} handlers  absolute files, 1-based positions
 * @param {import('../user-code/pool-calls.js').PoolCall[]} calls  the service's pool calls
 * @param {Map<string, object>} trees  file → syntax tree (own-files.js's)
 * @returns {object[]}  the pool calls reached, each once
 */
export function findReachedCalls(handlers, calls, trees) {
  const reached = new Set();
  const seen = new Set();
  const visit = (file, node, depth) => {
    const key = `${file}:${node.start}`;
    if (seen.has(key) || depth > MAX_DEPTH) return;
    seen.add(key);
    for (const call of calls) if (call.file === file && isWithin(call, node)) reached.add(call);
    const tree = trees.get(file);
    for (const target of listCallees(node)) {
      const found = resolveName(target, file, tree, trees);
      if (found) visit(found.file, found.node, depth + 1);
    }
  };
  for (const handler of handlers) {
    const tree = trees.get(handler.file);
    const node = tree && findFunctionAt(tree, handler);
    if (node) visit(handler.file, node, 0);
  }
  return calls.filter((call) => reached.has(call));
}

function isWithin(call, node) {
  const { start, end } = node.loc;
  const after = call.line > start.line || (call.line === start.line && call.column - 1 >= start.column);
  const before = call.line < end.line || (call.line === end.line && call.column - 1 <= end.column);
  return after && before;
}

// The innermost function whose span holds the position.
function findFunctionAt(ast, { line, column }) {
  let found = null;
  const holds = ({ start, end }) =>
    (line > start.line || (line === start.line && column - 1 >= start.column)) &&
    (line < end.line || (line === end.line && column - 1 <= end.column));
  ancestor(ast, {
    Function(node) {
      if (holds(node.loc) && (!found || node.start >= found.start)) found = node;
    },
  });
  return found;
}

// The names a function's body calls or hands on (`hash(pw)`, `auth.hash(pw)`, `promisify(hash)`).
function listCallees(node) {
  const names = [];
  simple(node, {
    CallExpression(call) {
      const callee = call.callee;
      if (callee.type === 'Identifier') names.push({ name: callee.name });
      else if (callee.type === 'MemberExpression' && callee.object.type === 'Identifier' && !callee.computed)
        names.push({ name: callee.object.name, member: callee.property.name });
      for (const argument of call.arguments) if (argument.type === 'Identifier') names.push({ name: argument.name });
    },
  });
  return names;
}

// A name → its declaration in this file, or the export of the user's file it is imported from.
function resolveName({ name, member }, file, ast, trees) {
  if (!ast) return null;
  for (const statement of ast.body) {
    if (statement.type === 'ImportDeclaration') {
      const specifier = statement.specifiers.find((each) => each.local.name === name);
      if (!specifier || !/^\.\.?\//.test(statement.source.value)) continue;
      const target = resolveOwnFile(path.dirname(file), statement.source.value);
      if (!target || !trees.has(target)) return null;
      const exported =
        specifier.type === 'ImportNamespaceSpecifier'
          ? member
          : specifier.type === 'ImportDefaultSpecifier'
            ? 'default'
            : (specifier.imported.name ?? specifier.imported.value);
      return exported ? findExport(trees.get(target), exported, target) : null;
    }
  }
  const local = findDeclaration(ast, name);
  return local ? { file, node: local } : null;
}

function findExport(ast, exported, file) {
  for (const statement of ast.body) {
    if (statement.type === 'ExportDefaultDeclaration' && exported === 'default') {
      const declaration = statement.declaration;
      if (declaration.type === 'Identifier') return withFile(findDeclaration(ast, declaration.name), file);
      return { file, node: declaration };
    }
    if (statement.type !== 'ExportNamedDeclaration') continue;
    if (statement.declaration) {
      const node = declares(statement.declaration, exported);
      if (node) return { file, node };
    }
    const specifier = statement.specifiers.find((each) => (each.exported.name ?? each.exported.value) === exported);
    if (specifier && !statement.source) return withFile(findDeclaration(ast, specifier.local.name), file);
  }
  return null;
}

function withFile(node, file) {
  return node ? { file, node } : null;
}

// A function or variable of that name, at the top level first, else anywhere in the file (inside the factory that
// builds the app): the whole declarator, so that `const pbkdf2 = promisify(crypto.pbkdf2)` counts the pool call in
// its initializer.
function findDeclaration(ast, name) {
  for (const statement of ast.body) {
    const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
    const node = declaration && declares(declaration, name);
    if (node) return node;
  }
  let found = null;
  simple(ast, {
    VariableDeclaration(node) {
      found ??= declares(node, name);
    },
    FunctionDeclaration(node) {
      found ??= declares(node, name);
    },
  });
  return found;
}

function declares(declaration, name) {
  if (FUNCTIONS.has(declaration.type) || declaration.type === 'ClassDeclaration')
    return declaration.id?.name === name ? declaration : null;
  if (declaration.type === 'VariableDeclaration')
    return declaration.declarations.find((each) => each.id.type === 'Identifier' && each.id.name === name) ?? null;
  return null;
}
