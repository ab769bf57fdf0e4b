// How values appear in messages ("found ...") and in hints ("write e.g. `cpus: [1, 2]`").

export function isPlainObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A scalar axis value is shorthand for a one-value list. */
export function ensureList(value) {
  return Array.isArray(value) ? value : [value];
}

/** What was found, in the words a YAML author uses. */
export function describeValue(value) {
  if (value === null || value === undefined) return 'nothing (an empty value)';
  if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : 'a list';
  if (isPlainObject(value)) return Object.keys(value).length === 0 ? 'an empty mapping' : 'a mapping';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value);
  return String(value);
}

// Strings YAML reads back as strings without quotes: words, and sizes such as 512m.
const PLAIN_STRING = /^([A-Za-z][A-Za-z0-9_.-]*|[0-9]+(\.[0-9]+)?[A-Za-z]+)$/;
const YAML_KEYWORDS = new Set(['true', 'false', 'null', 'yes', 'no', 'on', 'off', 'y', 'n']);

/** A value as YAML flow text, quoting strings that YAML would read as something else. */
export function formatFlow(value) {
  if (Array.isArray(value)) return `[${value.map(formatFlow).join(', ')}]`;
  if (isPlainObject(value)) {
    return `{${Object.entries(value)
      .map(([key, item]) => `${key}: ${formatFlow(item)}`)
      .join(', ')}}`;
  }
  if (typeof value === 'string' && !(PLAIN_STRING.test(value) && !YAML_KEYWORDS.has(value.toLowerCase()))) {
    return JSON.stringify(value);
  }
  return String(value);
}

/** `a`, `b` or `c` */
export function formatChoices(names, last = 'or') {
  const quoted = names.map((name) => `\`${name}\``);
  return quoted.length < 2 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} ${last} ${quoted.at(-1)}`;
}
