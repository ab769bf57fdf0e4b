// How a service starts in production: its start command (given with --start, else the `start` script of its
// package.json), the file that command runs, and the port that file listens on, read from the syntax tree: the
// argument of a `.listen(…)` call (a number, `{ port }`, or a name whose value is `process.env.PORT ?? 3000`), with
// the variable that overrides it. Also whether a module listens by itself when it is imported (a `.listen(…)` call
// at its top level): such a module cannot be handed to the lab's harness (`app:`), only started (`start:`).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ancestor, simple } from 'acorn-walk';
import { parse as parseShellWords } from 'shell-quote';

const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);
const SOURCE = /\.([mc]?[jt]s)$/;

/**
 * The `start` script of the package.json in `root`, with its line; null when there is none.
 * @returns {{ command: string, file: string, line: number }|null}
 */
export function readStartScript(root) {
  const file = path.join(root, 'package.json');
  if (!existsSync(file)) return null;
  let text;
  let manifest;
  try {
    text = readFileSync(file, 'utf8');
    manifest = JSON.parse(text);
  } catch {
    return null;
  }
  const command = manifest?.scripts?.start;
  if (typeof command !== 'string' || command.trim() === '') return null;
  const line = text.split('\n').findIndex((each) => /"start"\s*:/.test(each)) + 1;
  return { command, file: 'package.json', line: line || 1 };
}

/**
 * The file a start command runs with node (or a TypeScript runner), relative to the service's folder; null when it
 * runs none the lab can read (`npm run x`, a process manager's config).
 */
export function findStartFile(command) {
  const words = parseShellWords(command, (name) => `$${name}`).filter((word) => typeof word === 'string');
  const at = words.findIndex((word) => /^(node|nodejs|tsx|ts-node)$/.test(path.basename(word)));
  if (at === -1) return null;
  const file = words.slice(at + 1).find((word) => !word.startsWith('-'));
  return file && SOURCE.test(file) ? file : null;
}

/** Whether the lab's image can run the command: it has node and sh, not npm, yarn or a TypeScript runner. */
export function describeUnrunnable(command) {
  const words = parseShellWords(command, (name) => `$${name}`).filter((word) => typeof word === 'string');
  const program = words.find((word) => !/^[A-Z_][A-Z0-9_]*=/.test(word));
  return program && /^(npm|npx|yarn|pnpm|pm2|pm2-runtime|nodemon|tsx|ts-node)$/.test(path.basename(program))
    ? program
    : null;
}

/**
 * The port the service listens on, from the first `.listen(…)` call whose port the source says.
 * @param {{ file: string, ast: object }[]} trees
 * @returns {{ port: number, env: string|null, file: string, line: number }|null}
 */
export function findListenPort(trees) {
  for (const { file, ast } of trees) {
    const values = readConstants(ast);
    let found = null;
    simple(ast, {
      CallExpression(node) {
        if (found || !isListenCall(node) || node.arguments.length === 0) return;
        const port = readPort(node.arguments[0], values);
        if (port) found = { ...port, file, line: node.loc.start.line };
      },
    });
    if (found) return found;
  }
  return null;
}

/** A `.listen(…)` call run when the module is imported (at its top level, outside any function), or null. */
export function findListenAtLoad(ast) {
  let found = null;
  ancestor(ast, {
    CallExpression(node, _state, ancestors) {
      if (found || !isListenCall(node)) return;
      if (!ancestors.some((each) => FUNCTIONS.has(each.type))) found = { line: node.loc.start.line };
    },
  });
  return found;
}

function isListenCall(node) {
  return node.callee.type === 'MemberExpression' && !node.callee.computed && node.callee.property.name === 'listen';
}

// A port argument: 3000, { port: 3000 }, PORT (a constant of the file), process.env.PORT ?? 3000, Number(…) || 3000.
function readPort(node, values, depth = 0) {
  if (!node || depth > 3) return null;
  if (node.type === 'ObjectExpression') {
    const property = node.properties.find(
      (each) => each.type === 'Property' && !each.computed && (each.key.name ?? each.key.value) === 'port',
    );
    return property ? readPort(property.value, values, depth + 1) : null;
  }
  if (node.type === 'Identifier' && values.has(node.name)) return readPort(values.get(node.name), values, depth + 1);
  let port = null;
  let env = null;
  simple(node, {
    Literal(literal) {
      const number = Number(literal.value);
      if (port === null && Number.isInteger(number) && number > 0 && number < 65536) port = number;
    },
    MemberExpression(member) {
      if (member.object.type === 'MemberExpression' && member.object.property?.name === 'env')
        env ??= member.property.name ?? member.property.value ?? null;
    },
  });
  return port === null ? null : { port, env };
}

// `const PORT = …` at any level of the file: the value a name stands for (not scope-aware, as pool-calls.js).
function readConstants(ast) {
  const values = new Map();
  simple(ast, {
    VariableDeclarator(node) {
      if (node.id.type === 'Identifier' && node.init) values.set(node.id.name, node.init);
    },
  });
  return values;
}
