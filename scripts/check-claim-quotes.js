#!/usr/bin/env node
// `npm run check:quotes`: every claim of published-experiments.yml names its post (`post:`) and carries the post's
// own words (`quote:`, one passage or a list, in the post's language); each passage is in that post's text as it is
// printed (white space normalised: a changed word fails), and every number the claim's `says` quotes is in the
// passages — for a control, whose `says` describes the design, in the post (the posts folder: ../shared/seeds beside
// the clone, as CI lays it out). A ratio worked out from the post's numbers belongs in `expect`, not in `says`. And
// the summary keeps the post's direction: each claim declares which way `says` puts B against A in one of its words
// (`direction: "B worse"`); a `says` that lost that word (reversed), a post's own "A → B" figures in `says` that go
// the other way, or an `expect` on the other side of 1 fails (scripts/lib/claim-quotes.js, findDirectionProblems).
//
// The post figures docs/findings.src.md sets beside ours (`findings:figure … post=NNN quote="31,836 KB"`) are quotes
// too: each is found in its post as printed.
//
//   node scripts/check-claim-quotes.js [--config FILE] [--posts DIR] [--source FILE]
//
// Exit status: 0 every quote found, 1 a claim names no post, has no quote, quotes a passage its post does not print or
// a number its quote lacks (each listed at file:line:column), 2 bad usage, an unreadable file or no posts folder.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isEntryPoint, parseCommandLine, runCommand } from '../runner/commands/command-line.js';
import { LabError } from '../runner/errors.js';
import { parseYaml } from '../runner/config/parse-yaml.js';
import { formatPath } from '../runner/config/diagnostics/paths.js';
import {
  findDirectionProblems,
  findMissingPassages,
  findPostFile,
  findUnquotedNumbers,
  listClaims,
} from './lib/claim-quotes.js';
import { findMetric, primaryMetrics } from '../runner/domain/metrics.js';
import { listDirectives } from './lib/findings-directives.js';
import { listFigureQuotes } from './lib/findings-twins.js';

const PROJECT_DIR = fileURLToPath(new URL('../', import.meta.url));

const USAGE = `Usage: node scripts/check-claim-quotes.js [--config FILE] [--posts DIR] [--source FILE]

  --config FILE  the experiments whose claims are checked (default: published-experiments.yml)
  --posts DIR    the posts as plain text, one <post>.txt or <post>_<hash>.txt each
                 (default: ../shared/seeds beside the project folder, where CI puts them)
  --source FILE  findings prose whose findings:figure directives quote the posts (default: docs/findings.src.md;
                 "none" to skip)

Exit status: 0 every quote is in its post, every quoted number in its quote and every summary keeps its declared
direction, 1 a claim names no post, has no quote, quotes what its post does not print, or its \`says\` reverses its
declared direction (or \`expect\` does), 2 bad usage, an unreadable file or no posts folder.`;

export async function main(argv, { stdout = process.stdout } = {}) {
  const { values } = parseCommandLine(argv, {
    usage: USAGE,
    options: {
      config: { type: 'string', default: join(PROJECT_DIR, 'published-experiments.yml') },
      posts: { type: 'string', default: resolve(PROJECT_DIR, '../shared/seeds') },
      source: { type: 'string', default: join(PROJECT_DIR, 'docs/findings.src.md') },
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
  const source = values.source === 'none' ? null : resolve(values.source);
  const figures = source ? checkFigures(readText(source), posts) : [];
  for (const { line, message } of figures) stdout.write(`${relative(process.cwd(), source)}:${line}: ${message}\n`);
  problems.push(...figures);
  stdout.write(
    problems.length === 0
      ? `${claims} claims: every quote is in its post, every number of \`says\` in its quote and every \`says\` in its declared direction; ${figures.length === 0 && source ? 'every post figure of the findings is in its post ' : ''}(${posts})\n`
      : `${problems.length} problem(s) in ${claims} claims: \`quote\` is the post's own text (white space aside), \`says\` quotes only numbers its quote prints, in the post's own unit (a ratio worked out from them goes in \`expect\`), and keeps the direction \`direction\` declares, on the side of 1 \`expect\` is\n`,
  );
  return problems.length === 0 ? 0 : 1;
}

/** [{ path, message }] for every claim that names no post or a post not in the folder, has no quote, quotes a
 * passage the post lacks, or a number of `says` its quote (a control: its post) lacks. */
export function checkQuotes(raw, postsDir) {
  const files = readdirSync(postsDir);
  const texts = new Map();
  return listClaims(raw).flatMap((claim) => {
    const { path, says, post, quote, control } = claim;
    if (typeof post !== 'string' || post === '')
      return [{ path, message: 'names no post: add `post: "NNN"`, the post its `says` quotes' }];
    const found = findPostFile(post, files);
    if (found.error) return [{ path: [...path, 'post'], message: found.error }];
    if (!texts.has(found.file)) texts.set(found.file, readText(join(postsDir, found.file)));
    const text = texts.get(found.file);
    if (quote === undefined || quote === null)
      return [
        { path, message: `has no \`quote:\`: add the words of ${found.file} the claim stands on, as printed there` },
      ];
    const passages = [quote].flat();
    const missing = findMissingPassages(passages, text).map((passage) => ({
      path: [...path, 'quote', ...(Array.isArray(quote) ? [quote.indexOf(passage)] : [])],
      message: `not in ${found.file} as printed: "${passage.length > 60 ? `${passage.slice(0, 57)}…` : passage}"`,
    }));
    // A control's `says` describes the design: its numbers need only be the post's.
    const source = control ? text : passages.join('\n');
    const unquoted = typeof says === 'string' ? findUnquotedNumbers(says, source) : [];
    return [
      ...missing,
      ...unquoted.map((number) => ({
        path: [...path, 'says'],
        message: control
          ? `${number} is not a number ${found.file} prints`
          : `${number} is not a number its quote prints`,
      })),
      ...checkFigureQuotes(claim, passages, text, found.file),
      ...checkReasons(claim, text, found.file),
      ...checkSetup(claim, text, found.file),
      ...findDirectionProblems(claim, describeMetric(claim)).map((message) => ({
        path: [...path, claim.direction === undefined ? 'says' : 'direction'],
        message,
      })),
    ];
  });
}

// A figure a claim tests is a quote too: in one of its passages, as printed; its reason quotes only the post's numbers.
function checkFigureQuotes({ path, figures, design }, passages, text, file) {
  if (!Array.isArray(figures)) return [];
  return figures.flatMap((figure, index) => {
    const at = [...path, 'figures', index];
    const missing = findMissingPassages(listFigureQuotes(figure?.quote), passages.join('\n')).map((figureText) => ({
      path: [...at, 'quote'],
      message: `"${figureText}" is not in the claim's quote as printed: quote the passage that prints it`,
    }));
    const typed =
      typeof figure?.differs === 'string'
        ? findUnquotedNumbers(figure.differs, `${text}\n${design ?? ''}`).map((number) => ({
            path: [...at, 'differs'],
            message: `${number} is not a number ${file} prints: a reason gives no measured number (the findings generate them)`,
          }))
        : [];
    return [...missing, ...typed];
  });
}

// The post's setup (its operation, its packages) is the post's words: each as printed there.
function checkSetup({ path, setup }, text, file) {
  if (!setup || typeof setup !== 'object') return [];
  const named = [
    ...(typeof setup.operation === 'string' ? [[['operation'], setup.operation]] : []),
    ...(Array.isArray(setup.packages) ? setup.packages.map((each, i) => [['packages', i], each]) : []),
  ];
  return named.flatMap(([at, words]) =>
    typeof words === 'string' && findMissingPassages(words, text).length > 0
      ? [{ path: [...path, 'post_setup', ...at], message: `not in ${file} as printed: "${words}"` }]
      : [],
  );
}

// Why a metric is not the post's, and the conditions' note: words, and numbers only the post's own or the design's
// (a Node.js major of the matrix): a measured number belongs in the findings, generated.
function checkReasons({ path, reasons, design }, text, file) {
  return Object.entries(reasons ?? {}).flatMap(([key, words]) =>
    typeof words === 'string'
      ? findUnquotedNumbers(words, `${text}\n${design ?? ''}`).map((number) => ({
          path: [...path, ...key.split('.')],
          message: `${number} is not a number ${file} prints: a reason gives no measured number (the findings generate them)`,
        }))
      : [],
  );
}

// The claim's metric and which way it is better: a time (ms) is better lower where the metric table does not say.
function describeMetric({ metric, workload }) {
  const column =
    typeof metric === 'string' ? metric : typeof workload === 'string' ? primaryMetrics(workload)[0].column : 'wall_ms';
  const found = findMetric(column);
  return { metric: column, better: found.better ?? (found.unit === 'ms' ? 'lower' : null) };
}

/** [{ line, message }] for every findings:figure directive whose post figure its post does not print as quoted. */
export function checkFigures(source, postsDir) {
  const files = readdirSync(postsDir);
  return listDirectives(source)
    .filter(({ kind }) => kind === 'figure')
    .flatMap(({ args, line }) => {
      if (!args.post) return [{ line, message: 'findings:figure names no post: add post=NNN' }];
      const found = findPostFile(args.post, files);
      if (found.error) return [{ line, message: found.error }];
      const text = readText(join(postsDir, found.file));
      return findMissingPassages(listFigureQuotes(args.quote), text).map((figure) => ({
        line,
        message: `findings:figure quotes "${figure}", which ${found.file} does not print`,
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
