// The directives of docs/findings.src.md: an HTML comment on a line of its own, `<!-- findings:KIND ARGS -->`.
// scripts/findings.js renders them; scripts/check-claim-quotes.js reads the post figures they quote.

export const DIRECTIVE = /^<!-- findings:([\w-]+)(?: ([^>]*?))? -->$/;

/**
 * `NAME key=value key="a value with spaces" …`: a word without `=` is the experiment; a value may hold `=` itself
 * (findings:ratio's sides) and, in double quotes, spaces.
 */
export function parseArgs(text) {
  const args = {};
  for (const [, token, key, quoted] of (text ?? '').matchAll(/(([\w-]+)="([^"]*)"|\S+)/g)) {
    if (key !== undefined) {
      args[key] = quoted;
      continue;
    }
    const at = token.indexOf('=');
    if (at < 0) args.name = token;
    else args[token.slice(0, at)] = token.slice(at + 1);
  }
  return args;
}

/** Every directive of a source text: { kind, args, line } (line from 1). */
export function listDirectives(source) {
  return source.split('\n').flatMap((text, index) => {
    const match = DIRECTIVE.exec(text.trim());
    return match ? [{ kind: match[1], args: parseArgs(match[2]), line: index + 1 }] : [];
  });
}
