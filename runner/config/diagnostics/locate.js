// Key path → line and column in the YAML source, so every error can point into the file.

import { isAlias, isMap, isScalar, isSeq } from 'yaml';

/**
 * locate(['experiments', 'pool', 'matrix', 'cpus', 1]) → { line, column } (1-based) of that value, or of the key of
 * its nearest existing ancestor. With { key: true }, the key itself (for unknown and misnamed keys).
 */
export function createLocator(doc, lineCounter) {
  const findPosition = (node) => {
    const { line, col } = lineCounter.linePos(node.range[0]);
    return { line, column: col };
  };

  return function locate(path, { key = false } = {}) {
    if (!doc.contents) return { line: 1, column: 1 };
    let entry = { value: doc.contents };
    for (const segment of path) {
      const child = findChild(resolve(entry.value, doc), segment);
      if (!child) return findPosition(entry.key ?? entry.value);
      entry = child;
    }
    if (key && entry.key) return findPosition(entry.key);
    return findPosition(isEmpty(entry.value) ? (entry.key ?? entry.value) : entry.value);
  };
}

function resolve(node, doc) {
  return isAlias(node) ? node.resolve(doc) : node;
}

function findChild(node, segment) {
  if (isMap(node)) {
    const pair = node.items.find((item) => String(isScalar(item.key) ? item.key.value : item.key) === String(segment));
    return pair && { key: pair.key, value: pair.value ?? pair.key };
  }
  if (isSeq(node) && typeof segment === 'number' && node.items[segment]) return { value: node.items[segment] };
  return undefined;
}

// `matrix:` with nothing after it is an empty scalar at the end of the line; its key is the better place.
function isEmpty(node) {
  return !node?.range || (isScalar(node) && node.value === null && node.range[0] === node.range[1]);
}
