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
 * @returns {{ path: (string|number)[], says: unknown, post: unknown, quote: unknown, control: boolean,
 *   direction: unknown, figures: unknown, setup: unknown, reasons: Record<string, unknown>, expect: unknown,
 *   metric: unknown,
 *   workload: unknown, design: string }[]}  workload: the experiment's first; reasons: the words that say why
 *   (not_comparable, the conditions' note), whose numbers must be the post's or the design's (`design`: its matrix and
 *   conditions as text)
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
      direction: claim?.direction,
      figures: claim?.figures,
      setup: claim?.post_setup,
      reasons: {
        not_comparable: claim?.not_comparable,
        'conditions.note': claim?.conditions?.note,
      },
      // A reason may name the design's own values (a Node.js major of the matrix, the post's CPUs): not measured.
      design: JSON.stringify([experiment?.matrix ?? {}, claim?.conditions?.cpus, claim?.conditions?.node]),
      expect: claim?.expect,
      metric: claim?.metric,
      workload: [experiment?.matrix?.workload].flat()[0],
    })),
  );
}

// Which way a claim's `says` puts B against A, in its own words: `direction: "B worse"` names the side the word is
// about and a word `says` holds. Each word is of a family: what it says of the metric's value (up, down, the same)
// or of its worth (better, worse: up or down by the metric's better side). A summary whose word was reversed no
// longer holds the declared word; a declared word whose family disagrees with `expect` is a reversal too.
const DIRECTION_WORDS = {
  up: ['more', 'higher', 'grows', 'grew', 'larger', 'bigger', 'twice', 'increase', 'longer', 'later'],
  down: ['less', 'lower', 'fell', 'halved', 'halve', 'half', 'quarter', 'smaller', 'decrease', 'shorter', 'sooner'],
  better: ['better', 'faster', 'benefit'],
  worse: ['worse', 'slower'],
  same: ['same', 'nothing', 'as fast as', 'alike'],
};
// "at once" and "down" read as a fall of the value: "answered at once", "down to 232 µs".
DIRECTION_WORDS.down.push('at once', 'down');

const DIRECTION = /^(A|B) (.+)$/;

/** The family of a direction word, or null: "worse" → 'worse'. */
export function findDirectionFamily(word) {
  const lower = word.toLowerCase();
  return Object.keys(DIRECTION_WORDS).find((family) => DIRECTION_WORDS[family].includes(lower)) ?? null;
}

// +1: B / A above 1, -1: below, 0: about 1; null: the form does not say (`{below: 2}`, `model`).
function sideOfExpect(expect) {
  if (!expect || typeof expect !== 'object') return null;
  if (expect.same !== undefined) return 0;
  if (expect.ratio !== undefined) {
    const [low, high] = [expect.ratio * (1 - (expect.within ?? 0)), expect.ratio * (1 + (expect.within ?? 0))];
    return high < 1 ? -1 : low > 1 ? 1 : 0;
  }
  if (expect.below !== undefined) return expect.below <= 1 ? -1 : null;
  if (expect.above !== undefined) return expect.above >= 1 ? 1 : null;
  return null;
}

function sideOfWord(family, side, better) {
  const worth = { lower: -1, higher: 1 }[better];
  const value = { up: 1, down: -1, same: 0, better: worth, worse: worth === undefined ? undefined : -worth }[family];
  if (value === undefined) return undefined;
  return side === 'A' ? -value : value;
}

const SIDE_WORDS = { 1: 'above 1', '-1': 'below 1', 0: 'about 1' };

/**
 * Whether a claim's `says` keeps the direction it declares, and that direction agrees with `expect`.
 * @param {{ says: string, direction?: unknown, expect?: unknown }} claim
 * @param {{ better: 'lower'|'higher'|null, metric: string }} metric  which way the claim's metric is better
 * @returns {string[]} what is wrong, in words (none: the summary and the expectation point the same way)
 */
export function findDirectionProblems({ says, direction, expect }, { better, metric }) {
  if (direction === undefined)
    return ['declares no `direction`: write which way `says` puts B against A, in a word of it (e.g. "B worse")'];
  const match = typeof direction === 'string' ? DIRECTION.exec(direction.trim()) : null;
  if (!match) return [`\`direction\` is "${direction}"; expected "A <word>" or "B <word>", e.g. "B worse"`];
  const [, side, word] = match;
  const family = findDirectionFamily(word);
  if (!family)
    return [`"${word}" is not a direction word; expected one of ${Object.values(DIRECTION_WORDS).flat().join(', ')}`];
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const times = typeof says === 'string' ? says.match(new RegExp(`(?<![\\p{L}])${escaped}(?![\\p{L}])`, 'giu')) : null;
  if (!times)
    return [`\`says\` no longer has "${word}", the word its \`direction\` declares: was the summary reversed?`];
  // Said twice, one of them could be reversed and the other still match.
  if (times.length > 1)
    return [`\`says\` has "${word}" ${times.length} times: say the direction once, so a reversal cannot hide`];
  const claimed = sideOfWord(family, side, better);
  if (claimed === undefined)
    return [`"${word}" says better or worse, and ${metric} has no better side: use a word of value (higher, lower)`];
  const arrows = findArrowProblems(says, claimed);
  const expected = sideOfExpect(expect);
  if (expected === null || expected === claimed) return arrows;
  return [
    `\`says\` puts B / A ${SIDE_WORDS[claimed]} ("${side} ${word}" on ${metric}) and \`expect\` ${SIDE_WORDS[expected]}: one of them is reversed`,
    ...arrows,
  ];
}

// "31,836 KB → 38,372 KB", "13,285 → 18,981 req/s": the post's own figures for A and B, in a unit of a measurement
// (an arrow of axis values, "4 → 8 pool threads", has none). They must go the way the declared word goes.
const ARROW =
  /(\d[\d,.]*)\s*(?:KB|MB|MiB|ms|s|µs|μs)?\s*→\s*(\d[\d,.]*)\s*(KB|MB|MiB|GB|ms|s|µs|μs|req\/s)(?![\p{L}])/gu;

function findArrowProblems(says, claimed) {
  if (typeof says !== 'string' || claimed === 0) return [];
  return [...says.matchAll(ARROW)].flatMap(([text, from, to]) => {
    const [a, b] = [from, to].map((number) => Number(number.replaceAll(',', '')));
    const arrow = Math.sign(b - a);
    return arrow === 0 || arrow === claimed
      ? []
      : [`"${text}" goes the other way from the word \`direction\` declares: was the summary reversed?`];
  });
}
