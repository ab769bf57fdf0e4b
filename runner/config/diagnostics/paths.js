// Key paths as a person reads them (experiments.pool.matrix.cpus[2]) and as ajv reports them (/experiments/pool/...).

const PLAIN_SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_-]*$/;

/** ['experiments', 'pool', 'matrix', 'cpus', 2] → 'experiments.pool.matrix.cpus[2]' */
export function formatPath(path) {
  return path
    .map((segment, index) => {
      if (typeof segment === 'number') return `[${segment}]`;
      // Names with dots or slashes would make the path ambiguous, so they are quoted.
      if (!PLAIN_SEGMENT.test(segment)) return `[${JSON.stringify(segment)}]`;
      return index === 0 ? segment : `.${segment}`;
    })
    .join('');
}

/** JSON pointer → path array; list indices become numbers so formatPath prints them as [n]. */
export function parsePointer(pointer, data) {
  if (pointer === '') return [];
  const path = [];
  let node = data;
  for (const encoded of pointer.slice(1).split('/')) {
    const segment = encoded.replaceAll('~1', '/').replaceAll('~0', '~');
    const key = Array.isArray(node) ? Number(segment) : segment;
    path.push(key);
    node = node?.[key];
  }
  return path;
}
