// Container memory limits in Docker notation (`docker run --memory`): 512m, 1g, 1.5g, or bytes.

export const MEMORY_PATTERN = '^[0-9]+(\\.[0-9]+)?[bkmgBKMG]?$';
export const MIN_MEMORY = '16m';

const UNIT_BYTES = { b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** '512m' → 536870912; undefined when the text is not Docker notation. */
export function parseMemoryBytes(text) {
  if (typeof text !== 'string' || !new RegExp(MEMORY_PATTERN).test(text)) return undefined;
  const [, amount, unit] = /^(.*?)([a-z]?)$/i.exec(text);
  // Docker truncates fractional bytes too (1.5k is 1536, 0.3k is 307).
  return Math.floor(Number(amount) * UNIT_BYTES[unit.toLowerCase() || 'b']);
}

export const MIN_MEMORY_BYTES = parseMemoryBytes(MIN_MEMORY);
