#!/usr/bin/env node
// `npm run check:quotes`: every claim of published-experiments.yml names its post (`post:`), and every number its
// `says` quotes is printed in that post's text (the posts folder: ../shared/seeds beside the clone, as CI lays it
// out). A ratio worked out from the post's numbers belongs in `expect`, not in `says`: `says` quotes.
//
//   node scripts/check-claim-quotes.js [--config FILE] [--posts DIR]
//
// Exit status: 0 every number found, 1 a claim names no post or quotes a number its post does not print (each
// listed at file:line:column), 2 bad usage, an unreadable file or no posts folder.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isEntryPoint, parseCommandLine, runCommand } from '../runner/commands/command-line.js';
import { LabError } from '../runner/errors.js';
import { parseYaml } from '../runner/config/parse-yaml.js';
import { formatPath } from '../runner/config/diagnostics/paths.js';
import { findPostFile, findUnquotedNumbers, listClaims } from './lib/claim-quotes.js';

const PROJECT_DIR = fileURLToPath(new URL('../', import.meta.url));

const USAGE = `Usage: node scripts/check-claim-quotes.js [--config FILE] [--posts DIR]

  --config FILE  the experiments whose claims are checked (default: published-experiments.yml)
  --posts DIR    the posts as plain text, one <post>.txt or <post>_<hash>.txt each
                 (default: ../shared/seeds beside the project folder, where CI puts them)

Exit status: 0 every quoted number is in its post, 1 a claim names no post or quotes a number its post does not
print, 2 bad usage, an unreadable file or no posts folder.`;

export async function main(argv, { stdout = process.stdout } = {}) {
  const { values } = parseCommandLine(argv, {
    usage: USAGE,
    options: {
      config: { type: 'string', default: join(PROJECT_DIR, 'published-experiments.yml') },
      posts: { type: 'string', default: resolve(PROJECT_DIR, '../shared/seeds') },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    stdout.write(`${USAGE}\n`);
    return 0;
  }
  const config = resolve(values.config);
  const posts = resolve(values.posts);
  if (!existsSync(posts) || !statSync(posts).isDirectory()) {
    throw new LabError(
      'ERR_USAGE',
      `no posts folder at ${posts}: the quote check cannot read the posts the claims quote`,
      {
        hint: 'put the posts there (CI has them in ../shared/seeds beside the clone) or pass --posts DIR',
      },
    );
  }
  const { raw, locate } = parseYaml(readText(config), config);
  const problems = checkQuotes(raw, posts);
  const claims = listClaims(raw).length;
  for (const { path, message } of problems) {
    const { line, column } = locate(path);
    stdout.write(`${relative(process.cwd(), config)}:${line}:${column}: ${formatPath(path)}: ${message}\n`);
  }
  stdout.write(
    problems.length === 0
      ? `${claims} claims: every number they quote is in their post (${posts})\n`
      : `${problems.length} problem(s) in ${claims} claims: a claim quotes only numbers its post prints, in the post's own unit; a ratio worked out from them goes in \`expect\`\n`,
  );
  return problems.length === 0 ? 0 : 1;
}

/** [{ path, message }] for every claim that names no post, a post not in the folder, or a number the post lacks. */
function checkQuotes(raw, postsDir) {
  const files = readdirSync(postsDir);
  const texts = new Map();
  return listClaims(raw).flatMap(({ path, says, post }) => {
    if (typeof post !== 'string' || post === '')
      return [{ path, message: 'names no post: add `post: "NNN"`, the post its `says` quotes' }];
    const found = findPostFile(post, files);
    if (found.error) return [{ path: [...path, 'post'], message: found.error }];
    if (!texts.has(found.file)) texts.set(found.file, readText(join(postsDir, found.file)));
    const missing = typeof says === 'string' ? findUnquotedNumbers(says, texts.get(found.file)) : [];
    return missing.map((number) => ({
      path: [...path, 'says'],
      message: `${number} is not a number ${found.file} prints`,
    }));
  });
}

function readText(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new LabError('ERR_CONFIG_UNREADABLE', `cannot read ${file}: ${error.code}`, { file, cause: error });
  }
}

if (isEntryPoint(import.meta.url)) runCommand(main);
