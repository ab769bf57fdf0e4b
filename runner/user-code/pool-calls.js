// Which calls of a user's module run on libuv's thread pool, read from its syntax tree (no code run) and from the
// user's own files it imports, to a depth: what makes `uv_threadpool_size` a knob of this code. `init` writes the
// axis when there are some, and says which; `plan` warns when a matrix varies the pool for code with none.
//
// What runs on the pool
// (https://nodejs.org/en/learn/asynchronous-work/dont-block-the-event-loop#what-code-runs-on-the-worker-pool):
// the async forms of crypto's expensive calls (pbkdf2, scrypt, randomBytes with a callback, …), of zlib, of fs (the
// callback API and fs/promises), and dns.lookup, which http, https, net, tls and fetch call for a host name. A
// package's code is not read (node_modules: often a native addon that uses the pool, such as bcrypt): it is named,
// so the person can judge.
import path from 'node:path';
import { ancestor } from 'acorn-walk';
import { isRequireCall } from './module-exports.js';
import { MAX_DEPTH, readOwnFiles } from './own-files.js';

export { MAX_DEPTH };

// The fs functions whose callback and promise forms queue on the pool (every one but watch, watchFile, unwatchFile).
const FS = [
  'access',
  'appendFile',
  'chmod',
  'chown',
  'close',
  'copyFile',
  'cp',
  'createReadStream',
  'createWriteStream',
  'exists',
  'fchmod',
  'fchown',
  'fdatasync',
  'fstat',
  'fsync',
  'ftruncate',
  'futimes',
  'glob',
  'lchmod',
  'lchown',
  'link',
  'lstat',
  'lutimes',
  'mkdir',
  'mkdtemp',
  'open',
  'opendir',
  'read',
  'readdir',
  'readFile',
  'readlink',
  'readv',
  'realpath',
  'rename',
  'rm',
  'rmdir',
  'stat',
  'statfs',
  'symlink',
  'truncate',
  'unlink',
  'utimes',
  'write',
  'writeFile',
  'writev',
];
const ZLIB = [
  'brotliCompress',
  'brotliDecompress',
  'deflate',
  'deflateRaw',
  'gunzip',
  'gzip',
  'inflate',
  'inflateRaw',
  'unzip',
  'zstdCompress',
  'zstdDecompress',
  'createBrotliCompress',
  'createBrotliDecompress',
  'createDeflate',
  'createDeflateRaw',
  'createGunzip',
  'createGzip',
  'createInflate',
  'createInflateRaw',
  'createUnzip',
  'createZstdCompress',
  'createZstdDecompress',
];
// 'callback': on the pool only when given a callback (or handed on, as to util.promisify); without one it is sync.
const CRYPTO = {
  pbkdf2: 'always',
  scrypt: 'always',
  randomFill: 'always',
  generateKeyPair: 'always',
  generateKey: 'always',
  generatePrime: 'always',
  checkPrime: 'always',
  hkdf: 'always',
  randomBytes: 'callback',
  randomInt: 'callback',
  sign: 'callback',
  verify: 'callback',
  // Web Crypto: every crypto.subtle method runs its work as a pool job.
  subtle: 'always',
};
const DNS = { lookup: 'always', lookupService: 'always' };
// A host name is resolved by dns.lookup, on the pool (an IP address is not).
const CONNECTS = { request: 'host', get: 'host', connect: 'host', createConnection: 'host' };

const MODULES = {
  crypto: CRYPTO,
  zlib: Object.fromEntries(ZLIB.map((name) => [name, 'always'])),
  fs: Object.fromEntries(FS.map((name) => [name, 'always'])),
  'fs/promises': Object.fromEntries(FS.map((name) => [name, 'always'])),
  dns: DNS,
  'dns/promises': DNS,
  http: CONNECTS,
  https: CONNECTS,
  http2: { connect: 'host' },
  net: CONNECTS,
  tls: { connect: 'host' },
};
// `fs.promises` and `dns.promises` are the promise APIs.
const PROMISES = { fs: 'fs/promises', dns: 'dns/promises' };

/**
 * @typedef {object} PoolCall
 * @property {string} api     as a person writes it: crypto.pbkdf2, fs.promises.readFile, fetch (dns.lookup)
 * @property {string} file    absolute path
 * @property {number} line
 * @property {number} column  1-based
 */

/**
 * @param {string} file  the module (absolute path on the host)
 * @param {{ root: string, strip?: Function, maxDepth?: number }} options  root: the folder mounted into the container;
 *   strip: TypeScript → JavaScript (module-exports.js)
 * @returns {{ calls: PoolCall[], files: string[], packages: string[], unread: { file: string, why: string }[] }}
 *   files: the user's files read; packages: the packages they import (not read); unread: files that could not be
 */
export function findPoolCalls(file, { root, strip, maxDepth = MAX_DEPTH }) {
  const { trees, packages, unread } = readOwnFiles(file, { root, strip, maxDepth });
  return {
    calls: trees.flatMap((tree) => listPoolCalls(tree.ast, tree.file)),
    files: trees.map((tree) => tree.file),
    packages,
    unread,
  };
}

/** "src/app.js:3 crypto.pbkdf2" for a comment or a message; paths relative to `from`. */
export function formatPoolCall(call, from) {
  return `${path.relative(from, call.file).split(path.sep).join('/')}:${call.line} ${call.api}`;
}

/** Every reference to a pool API in one file's tree. */
export function listPoolCalls(ast, file) {
  const { modules, members } = readBindings(ast);
  const calls = [];
  const add = (api, node) => calls.push({ api, file, line: node.loc.start.line, column: node.loc.start.column + 1 });
  ancestor(ast, {
    MemberExpression(node, _state, ancestors) {
      // `fs.promises.readFile`: the promise API under its parent module.
      const object = node.object;
      let module = moduleOf(object, modules);
      if (module && PROMISES[module] && propertyName(node) === 'promises') return;
      if (!module && object.type === 'MemberExpression' && propertyName(object) === 'promises') {
        const parent = moduleOf(object.object, modules);
        module = parent && PROMISES[parent];
      }
      // The global Web Crypto object (`crypto.subtle.digest`) where no local `crypto` is bound.
      if (
        !module &&
        object.type === 'Identifier' &&
        object.name === 'crypto' &&
        !isBound(object.name, modules, members)
      )
        module = 'crypto';
      const name = propertyName(node);
      if (!module || name === undefined) return;
      const rule = MODULES[module]?.[name];
      if (rule && runsOnPool(rule, node, ancestors)) add(describeApi(module, name), node);
    },
    Identifier(node, _state, ancestors) {
      const member = members.get(node.name);
      if (member) {
        const rule = MODULES[member.module]?.[member.name];
        if (rule && runsOnPool(rule, node, ancestors)) add(describeApi(member.module, member.name), node);
      } else if (node.name === 'fetch' && !isBound('fetch', modules, members) && isCallee(node, ancestors)) {
        add('fetch (dns.lookup of its host)', node);
      }
    },
  });
  return calls;
}

// The local names bound to a builtin module (`import fs from 'node:fs'`, `const zlib = require('zlib')`) and to one
// of its functions (`import { pbkdf2 } from 'crypto'`, `const { lookup } = require('dns').promises`). Not scope
// aware: a name is taken to mean what its import says throughout the file.
function readBindings(ast) {
  const modules = new Map();
  const members = new Map();
  const bindPattern = (pattern, module) => {
    if (!module) return;
    if (pattern.type === 'Identifier') modules.set(pattern.name, module);
    if (pattern.type !== 'ObjectPattern') return;
    for (const property of pattern.properties) {
      if (property.type !== 'Property' || property.computed) continue;
      const name = property.key.type === 'Identifier' ? property.key.name : String(property.key.value);
      const local = property.value.type === 'AssignmentPattern' ? property.value.left : property.value;
      if (local.type !== 'Identifier') continue;
      if (name === 'promises' && PROMISES[module]) modules.set(local.name, PROMISES[module]);
      else members.set(local.name, { module, name });
    }
  };
  ancestor(ast, {
    ImportDeclaration(node) {
      const module = builtinOf(node.source.value);
      if (!module) return;
      for (const specifier of node.specifiers) {
        if (specifier.type !== 'ImportSpecifier') modules.set(specifier.local.name, module);
        else {
          const name = specifier.imported.name ?? specifier.imported.value;
          if (name === 'promises' && PROMISES[module]) modules.set(specifier.local.name, PROMISES[module]);
          else if (name === 'default') modules.set(specifier.local.name, module);
          else members.set(specifier.local.name, { module, name });
        }
      }
    },
    VariableDeclarator(node) {
      if (node.init) bindPattern(node.id, moduleOfInit(node.init));
    },
  });
  return { modules, members };
}

/** `require('fs')`, `require('fs').promises`, `await import('node:crypto')` → the module they give. */
function moduleOfInit(init) {
  const value = init.type === 'AwaitExpression' ? init.argument : init;
  if (isRequireCall(value) || (value.type === 'ImportExpression' && value.source.type === 'Literal'))
    return builtinOf(isRequireCall(value) ? value.arguments[0].value : value.source.value);
  if (value.type === 'MemberExpression' && propertyName(value) === 'promises' && isRequireCall(value.object))
    return PROMISES[builtinOf(value.object.arguments[0].value)];
  return undefined;
}

function moduleOf(node, modules) {
  if (node.type === 'Identifier') return modules.get(node.name);
  if (isRequireCall(node)) return builtinOf(node.arguments[0].value);
  return undefined;
}

function builtinOf(specifier) {
  if (typeof specifier !== 'string') return undefined;
  const name = specifier.replace(/^node:/, '');
  return Object.hasOwn(MODULES, name) ? name : undefined;
}

function isBound(name, modules, members) {
  return modules.has(name) || members.has(name);
}

// `host`: a connection resolves its host name on the pool; `callback`: the call is async only with a callback.
function runsOnPool(rule, node, ancestors) {
  if (rule === 'always' || rule === 'host') return true;
  const call = calleeCall(node, ancestors);
  // Handed on (util.promisify(crypto.randomBytes)): its async form.
  if (!call) return true;
  const last = call.arguments.at(-1);
  return last?.type === 'ArrowFunctionExpression' || last?.type === 'FunctionExpression';
}

function calleeCall(node, ancestors) {
  const parent = ancestors.at(-2);
  return parent?.type === 'CallExpression' && parent.callee === node ? parent : null;
}

function isCallee(node, ancestors) {
  return calleeCall(node, ancestors) !== null;
}

function describeApi(module, name) {
  const shown = module.endsWith('/promises')
    ? `${module.replace('/promises', '')}.promises.${name}`
    : `${module}.${name}`;
  return MODULES[module][name] === 'host' ? `${shown} (dns.lookup of its host)` : shown;
}

function propertyName(member) {
  if (!member.computed) return member.property.name;
  return member.property.type === 'Literal' && typeof member.property.value === 'string'
    ? member.property.value
    : undefined;
}
