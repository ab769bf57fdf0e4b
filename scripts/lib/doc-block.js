// A generated block of a docs page, between `<!-- NAME:start -->` and `<!-- NAME:end -->`: rewritten whole by the
// script that measures it, the rest of the page left as written.
import { readFileSync, writeFileSync } from 'node:fs';
import { LabError } from '../../runner/errors.js';

/** Replace the block NAME of `page` with `lines`; a page without the two markers is an error that says where. */
export function writeDocBlock(page, name, lines) {
  const text = readFileSync(page, 'utf8');
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from)
    throw new LabError('ERR_USAGE', `${page} has no ${start} … ${end} block`, {
      hint: 'add the two markers where the generated figures belong',
    });
  writeFileSync(page, `${text.slice(0, from + start.length)}\n${lines.join('\n')}\n${text.slice(to)}`);
}
