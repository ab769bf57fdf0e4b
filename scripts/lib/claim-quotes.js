// The pure part of the quote check (scripts/check-claim-quotes.js): whether a claim's `quote` is the post's own text,
// which numbers a claim's `says` quotes, and which of them its quote (or its post) lacks. Text is compared with every
// run of white space as one space (the posts wrap lines, a YAML string may not); words are compared as written, so
// a changed word fails. Numbers are compared as written, up to format: 13,285 and 13285 are one number, 9.60 and 9.6
// are one number, but 1.8 (seconds) and 1800 (ms) are not — a claim quotes what the post prints, in the post's unit.

// 10^9 is one number, not a 10 and a 9; a thousands separator only between groups of three digits.
const NUMBER = /\d+\^\d+|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?/gu;

// In `says`, a number that continues a word is part of a name (argon2, pbkdf2, sha512, M1, x86, p50), not a quote.
const PART_OF_NAME = /[\p{L}\p{N}_.]/u;

/**
 * The numbers of `text`, each in one canonical form ("13285", "9.6", "10^9"), in order of appearance.
 * @param {string} text
 * @param {{ names?: boolean }} [options]  names: also the digits inside names (a post's text, where
 *   "UV_THREADPOOL_SIZE=8" or "Node.js v16" may be the only place a number is printed)
 * @returns {{ text: string, number: string }[]}
 */
export function extractNumbers(text, { names = false } = {}) {
  const found = [];
  for (const match of text.matchAll(NUMBER)) {
    if (!names && match.index > 0 && PART_OF_NAME.test(text[match.index - 1])) continue;
    found.push({ text: match[0], number: canonicalNumber(match[0]) });
  }
  return found;
}

/** "13,285" → "13285", "9.60" → "9.6", "010" → "10", "10^9" stays. */
export function canonicalNumber(token) {
  if (token.includes('^'))
    return token
      .split('^')
      .map((part) => String(Number(part)))
      .join('^');
  return String(Number(token.replaceAll(',', '')));
}

/** The numbers `says` quotes that `post` does not print, each once, as `says` writes them. */
export function findUnquotedNumbers(says, post) {
  const printed = new Set(extractNumbers(post, { names: true }).map(({ number }) => number));
  const missing = new Map();
  for (const { text, number } of extractNumbers(says))
    if (!printed.has(number) && !missing.has(number)) missing.set(number, text);
  return [...missing.values()];
}

/** Text with every run of white space (line breaks, non-breaking spaces) as one space, trimmed. */
export function normalizeSpace(text) {
  return text.replace(/\s+/gu, ' ').trim();
}

/** The passages of `quote` (a string or a list) that `post` does not contain, white space normalised. */
export function findMissingPassages(quote, post) {
  const text = normalizeSpace(post);
  return [quote]
    .flat()
    .filter((passage) => typeof passage === 'string')
    .filter((passage) => !text.includes(normalizeSpace(passage)));
}

/**
 * The file a claim's `post` names among `files` (the folder's entries): `<post>.txt`, else the one `<post>_*.txt`.
 * @returns {{ file: string } | { error: string }}
 */
export function findPostFile(post, files) {
  const texts = files.filter((file) => file.endsWith('.txt'));
  if (texts.includes(`${post}.txt`)) return { file: `${post}.txt` };
  const matches = texts.filter((file) => file.startsWith(`${post}_`));
  if (matches.length === 1) return { file: matches[0] };
  if (matches.length === 0)
    return { error: `no ${post}.txt or ${post}_*.txt among ${texts.length ? texts.join(', ') : 'no .txt file'}` };
  return {
    error: `${post} names ${matches.length} texts (${matches.join(', ')}); write the whole file name without .txt`,
  };
}

/**
 * Every claim of a parsed experiments file, with its path for messages.
 * @param {unknown} raw  the YAML as plain data
 * @returns {{ path: (string|number)[], says: unknown, post: unknown, quote: unknown, control: boolean }[]}
 */
export function listClaims(raw) {
  const experiments = raw && typeof raw === 'object' ? raw.experiments : null;
  if (!experiments || typeof experiments !== 'object') return [];
  return Object.entries(experiments).flatMap(([name, experiment]) =>
    (Array.isArray(experiment?.claims) ? experiment.claims : []).map((claim, index) => ({
      path: ['experiments', name, 'claims', index],
      says: claim?.says,
      post: claim?.post,
      quote: claim?.quote,
      control: claim?.control === true,
    })),
  );
}
