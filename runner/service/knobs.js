// The knobs a service's own code has, read from the syntax trees of its files (no code run): the environment
// variables it reads (`process.env.NAME`, `process.env['NAME']`, `const { NAME } = process.env`) and those it sets
// itself; whether it forks node:cluster workers, and which variable gives their count; a worker pool whose size it
// reads from a variable (piscina's `maxThreads: Number(process.env.POOL_SIZE)`), and where each of them is written.
// A knob the lab varies is only worth measuring where production has the same knob (docs/own-code.md).
import { ancestor } from 'acorn-walk';
import { isRequireCall } from '../user-code/module-exports.js';

// Names a process manager or a platform gives the number of processes (Heroku's WEB_CONCURRENCY, and the like).
const PROCESS_COUNT = /^(WEB_CONCURRENCY|CLUSTER_WORKERS|NODE_CLUSTER_WORKERS|WORKERS|PROCESSES|CONCURRENCY)$/;
// What a worker pool's constructor options call its size (piscina, workerpool, poolifier, generic-pool).
const POOL_SIZE_KEYS = new Set([
  'maxThreads',
  'minThreads',
  'maxWorkers',
  'minWorkers',
  'numThreads',
  'threads',
  'size',
  'max',
]);
// Variables that say where or how to serve, never how many: not a count whatever the file.
const NOT_COUNTS = new Set(['PORT', 'HOST', 'NODE_ENV', 'UV_THREADPOOL_SIZE', 'NODE_OPTIONS', 'LOG_LEVEL']);

/**
 * @typedef {{ file: string, line: number }} Place
 * @param {{ file: string, ast: object }[]} trees  user-code/own-files.js's
 * @returns {{ env: { name: string, file: string, line: number, sets: boolean, fallback: string|null }[], cluster:
 *   (Place & { count: string|null, today: (Place & { value: string })|null })|null, pools: (Place & { name: string
 *   })[] }}  env: every read (sets: an assignment; fallback: the literal it falls back to when unset); cluster: where
 *   it forks, the variable that gives the count, and the count (and where) when it is unset; pools: a pool whose
 *   size a variable gives
 */
export function findKnobs(trees) {
  const env = [];
  const forks = [];
  const pools = [];
  for (const { file, ast } of trees) {
    const cluster = readClusterBindings(ast);
    const own = [];
    ancestor(ast, {
      MemberExpression(node, _state, ancestors) {
        const name = readEnvName(node);
        if (!name) return;
        const parent = ancestors.at(-2);
        own.push({
          name,
          file,
          line: node.loc.start.line,
          sets: parent?.type === 'AssignmentExpression' && parent.left === node,
          fallback: readFallback(node, parent),
        });
      },
      VariableDeclarator(node) {
        if (!isProcessEnv(node.init) || node.id.type !== 'ObjectPattern') return;
        for (const property of node.id.properties)
          if (property.type === 'Property' && property.key.type === 'Identifier')
            own.push({ name: property.key.name, file, line: property.loc.start.line, sets: false, fallback: null });
      },
      CallExpression(node) {
        const callee = node.callee;
        if (
          callee.type === 'MemberExpression' &&
          !callee.computed &&
          callee.property.name === 'fork' &&
          isCluster(callee.object, cluster)
        )
          forks.push({ file, line: node.loc.start.line });
      },
      NewExpression(node) {
        const size = readPoolSize(node);
        if (size) pools.push({ name: size, file, line: node.loc.start.line });
      },
    });
    env.push(...own);
  }
  return { env, cluster: describeCluster(forks, env), pools };
}

// The variable a forking service takes its count from: a conventional name, else the one variable its forking file
// reads that is no address or mode.
function describeCluster(forks, env) {
  if (forks.length === 0) return null;
  const [first] = forks;
  const reads = env.filter((each) => !each.sets);
  const named = reads.find((each) => PROCESS_COUNT.test(each.name));
  const inFile = [
    ...new Set(reads.filter((each) => each.file === first.file && !NOT_COUNTS.has(each.name)).map((each) => each.name)),
  ];
  const count = named?.name ?? (inFile.length === 1 ? inFile[0] : null);
  // What the service runs with when the variable is unset: the literal beside its read, where it has one.
  const read = reads.find((each) => each.name === count && each.fallback !== null);
  return { ...first, count, today: read ? { value: read.fallback, file: read.file, line: read.line } : null };
}

// `process.env.NAME ?? 1` or `process.env.NAME || '2'`: the value the code takes when NAME is unset, as a string;
// null when the read has no literal beside it.
function readFallback(node, parent) {
  if (parent?.type !== 'LogicalExpression' || parent.left !== node || !['??', '||'].includes(parent.operator))
    return null;
  const { right } = parent;
  return right.type === 'Literal' && ['number', 'string'].includes(typeof right.value) ? String(right.value) : null;
}

// `new Piscina({ maxThreads: Number(process.env.POOL_SIZE) })`: the variable in a size option, else null.
function readPoolSize(node) {
  const options = node.arguments.find((argument) => argument.type === 'ObjectExpression');
  if (!options) return null;
  for (const property of options.properties) {
    if (property.type !== 'Property' || property.computed) continue;
    const key = property.key.type === 'Identifier' ? property.key.name : property.key.value;
    if (!POOL_SIZE_KEYS.has(key)) continue;
    let name = null;
    ancestor(property.value, {
      MemberExpression(member) {
        name ??= readEnvName(member);
      },
    });
    if (name) return name;
  }
  return null;
}

/** `process.env.NAME` / `process.env['NAME']` → NAME. */
function readEnvName(node) {
  if (!isProcessEnv(node.object)) return null;
  if (!node.computed && node.property.type === 'Identifier') return node.property.name;
  return node.property.type === 'Literal' && typeof node.property.value === 'string' ? node.property.value : null;
}

function isProcessEnv(node) {
  return (
    node?.type === 'MemberExpression' &&
    !node.computed &&
    node.property.name === 'env' &&
    node.object.type === 'Identifier' &&
    node.object.name === 'process'
  );
}

// The local names bound to node:cluster (`import cluster from 'node:cluster'`, `const cluster = require('cluster')`).
function readClusterBindings(ast) {
  const names = new Set();
  const isClusterSource = (value) => value === 'cluster' || value === 'node:cluster';
  ancestor(ast, {
    ImportDeclaration(node) {
      if (isClusterSource(node.source.value))
        for (const specifier of node.specifiers)
          if (specifier.type !== 'ImportSpecifier') names.add(specifier.local.name);
    },
    VariableDeclarator(node) {
      const init = node.init?.type === 'AwaitExpression' ? node.init.argument : node.init;
      const source = isRequireCall(init)
        ? init.arguments[0].value
        : init?.type === 'ImportExpression'
          ? init.source.value
          : null;
      if (isClusterSource(source) && node.id.type === 'Identifier') names.add(node.id.name);
    },
  });
  return names;
}

function isCluster(node, names) {
  return (
    (node.type === 'Identifier' && names.has(node.name)) ||
    (isRequireCall(node) && /^(node:)?cluster$/.test(node.arguments[0].value))
  );
}
