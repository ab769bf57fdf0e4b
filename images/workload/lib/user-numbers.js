// What counts as "numbers the user's code returned": a plain object's finite numbers. A script's call
// returns it; a command prints it as its last stdout line. Each key becomes a user_<key> column.

/** A plain object's finite numbers, or undefined (a Buffer or an array would turn indexes into columns). */
export function pickUserNumbers(value) {
  const prototype = value !== null && typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
  if (prototype !== Object.prototype && prototype !== null) return undefined;
  const numbers = Object.entries(value).filter(([, number]) => typeof number === 'number' && Number.isFinite(number));
  return numbers.length > 0 ? Object.fromEntries(numbers) : undefined;
}

/** The numbers of a program's last stdout line, if it is a JSON object; {} otherwise. */
export function readLastLineNumbers(stdout) {
  const line = stdout.trim().split('\n').at(-1)?.trim() ?? '';
  if (!line.startsWith('{')) return {};
  try {
    return pickUserNumbers(JSON.parse(line)) ?? {};
  } catch {
    return {};
  }
}

/** { user_<key>: mean } over objects of numbers; an object without a key does not count for it. */
export function averageUserNumbers(objects) {
  const sums = new Map();
  for (const numbers of objects) {
    for (const [key, value] of Object.entries(numbers ?? {})) {
      const entry = sums.get(key) ?? { total: 0, count: 0 };
      sums.set(key, { total: entry.total + value, count: entry.count + 1 });
    }
  }
  return Object.fromEntries(
    [...sums].map(([key, { total, count }]) => [`user_${key}`, Math.round((total / count) * 1000) / 1000]),
  );
}
