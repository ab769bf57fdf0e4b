import { createHash } from 'node:crypto';

// A cell's id must be the same for the same values in every run and every results folder (resume
// and compare match on it), so it hashes a canonical form: keys sorted, values as JSON.
export function computeCellId(definition) {
  const canonical = JSON.stringify(sortKeysDeep(definition));
  return createHash('sha256').update(canonical).digest('hex').slice(0, 10);
}

function sortKeysDeep(value) {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeysDeep(value[key])]),
  );
}
