// The user's own files a module reaches through its imports (`import`, `export … from`, `require`, `import()` with a
// literal), to a depth, each parsed as the container's Node.js would read it (module-exports.js): what the readers
// of a service's code walk (pool-calls.js, the service's knobs). A package's files (node_modules) are never read: its
// name is listed, so a person can judge.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { isPackageSpecifier, listSpecifiers, packageName, parseUserModule } from './module-exports.js';

// How deep imports of the user's own files are followed from the module.
export const MAX_DEPTH = 8;
const SOURCE = /\.([mc]?js|[mc]?ts|jsx|tsx)$/;

/**
 * @param {string|string[]} start  the module(s) (absolute paths on the host)
 * @param {{ root: string, strip?: Function, maxDepth?: number }} options  root: the folder mounted into the
 *   container; strip: TypeScript → JavaScript (module-exports.js)
 * @returns {{ trees: { file: string, ast: object }[], packages: string[], unread: { file: string, why: string }[] }}
 *   trees: in the order they were reached, the start first
 */
export function readOwnFiles(start, { root, strip, maxDepth = MAX_DEPTH }) {
  const found = { trees: [], packages: [], unread: [] };
  const queue = [start].flat().map((file) => ({ file, depth: 0 }));
  const seen = new Set(queue.map((each) => each.file));
  while (queue.length > 0) {
    const next = queue.shift();
    const parsed = readTree(next.file, root, strip);
    if (parsed.why) {
      found.unread.push({ file: next.file, why: parsed.why });
      continue;
    }
    found.trees.push({ file: next.file, ast: parsed.ast });
    const specifiers = listSpecifiers(parsed.ast);
    for (const name of specifiers.filter(isPackageSpecifier).map(packageName))
      if (!found.packages.includes(name)) found.packages.push(name);
    for (const specifier of specifiers.filter((each) => /^\.\.?\//.test(each))) {
      const target = resolveOwnFile(path.dirname(next.file), specifier);
      if (!target || seen.has(target)) continue;
      seen.add(target);
      if (next.depth + 1 > maxDepth) found.unread.push({ file: target, why: `more than ${maxDepth} imports deep` });
      else queue.push({ file: target, depth: next.depth + 1 });
    }
  }
  return found;
}

function readTree(file, root, strip) {
  try {
    const parsed = parseUserModule(file, { root, strip });
    if (parsed.syntaxError)
      return {
        why: `does not parse (${parsed.syntaxError.message} at ${parsed.syntaxError.line}:${parsed.syntaxError.column})`,
      };
    return parsed;
  } catch (error) {
    return { why: `cannot be read (${error.code ?? error.message})` };
  }
}

/** The user's own file a relative specifier names (null: none, or a package's file under node_modules). */
export function resolveOwnFile(dir, specifier) {
  const base = path.resolve(dir, specifier);
  const candidates = [
    base,
    ...['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts'].map((extension) => `${base}${extension}`),
    // TypeScript imports './x.js' for x.ts.
    base.replace(/\.([mc]?)js$/, '.$1ts'),
    path.join(base, 'index.js'),
  ];
  const found = candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
  if (!found || !SOURCE.test(found) || found.split(path.sep).includes('node_modules')) return null;
  return found;
}
