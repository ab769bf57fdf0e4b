// Every file path a comment or a doc names exists: a path in a comment of runner/, images/, scripts/ or test/ (read
// with acorn, so strings and code are left out), and in the README and the pages of docs/. A path may be written
// from the repository's top, from the file's own folder, from runner/ (its rooms: `report/summary.js`) or from
// images/workload/ (the image's: `lib/cpuset.js`), and `./x` from the file's folder or the top. Paths in examples
// that are meant to be a user's (their service's files) are allowed by name below; links are links.test.js's.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'acorn';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
// Folders of generated results (docs/findings/, docs/settling/, …) and test fixtures are data, not prose.
const SKIPPED = new Set([
  'node_modules',
  'fixtures',
  'findings',
  'settling',
  'statistics',
  'interference',
  'precision',
]);
const USERS_PATHS = [
  // A person's service in the examples of init, own-code.md and the user-code checks.
  /^(src|lib|server)\/(app|server|hash)\.js$/,
  /^k8s\/(deployment|worker)\.yaml$/,
  /^\.\/(quote|x|more|experiments|compare)\.(js|yml|csv)$/,
  // The package installed in a service's node_modules.
  /^node_modules\/node-threads-lab\//,
  // Node.js's own benchmark/compare.js (runner/stats/statistics.js), and the studies beside the clone.
  /^benchmark\/compare\.js$/,
  /^\.\.\/shared\//,
];
// A path: segments joined by `/` ending in a file name with an extension we keep; not a URL's, a glob's or a
// placeholder's (`DIR/runs.csv`, `<name>/runs.csv`).
const PATH =
  /(?<![\w./<>$*{:@-])((?:\.{1,2}\/)*[\w-][\w.-]*(?:\/[\w.-]+)*\/[\w.-]*\.(?:js|mjs|md|json|ya?ml|csv|py|sh))(?![\w/])/g;

function listFiles(dir, keep) {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : listFiles(path, keep);
    return keep(entry.name) ? [path] : [];
  });
}

function readComments(file) {
  const comments = [];
  parse(readFileSync(join(ROOT, file), 'utf8'), {
    ecmaVersion: 'latest',
    sourceType: 'module',
    allowHashBang: true,
    onComment: (block, text) => comments.push(text),
  });
  return comments.join('\n');
}

function exists(path, from) {
  const places = path.startsWith('.')
    ? [join(dirname(from), path), path]
    : [path, join(dirname(from), path), `runner/${path}`, `images/workload/${path}`];
  return places.some((place) => existsSync(join(ROOT, place)));
}

function findMissing(file, text) {
  return [...text.matchAll(PATH)]
    .map(([, path]) => path)
    .filter((path) => !/(^|\/)[A-Z_]+\//.test(path) && !USERS_PATHS.some((pattern) => pattern.test(path)))
    .filter((path) => !exists(path, file))
    .map((path) => `${file}: ${path}`);
}

const SOURCES = ['runner', 'images', 'scripts', 'test'].flatMap((dir) =>
  listFiles(dir, (name) => name.endsWith('.js')),
);
const DOCS = ['README.md', ...listFiles('docs', (name) => name.endsWith('.md'))];

test('the files were read', () => {
  expect(SOURCES.length).toBeGreaterThan(300);
  expect(DOCS).toEqual(expect.arrayContaining(['README.md', 'docs/architecture.md', 'docs/cli.md']));
});

test('every path named in a comment exists', () => {
  expect(SOURCES.flatMap((file) => findMissing(file, readComments(file)))).toEqual([]);
});

test('every path named in a doc exists', () => {
  expect(DOCS.flatMap((file) => findMissing(file, readFileSync(join(ROOT, file), 'utf8')))).toEqual([]);
});

test('a path that is not there is found', () => {
  expect(findMissing('runner/api/plan.js', 'see test/unit/run-experiments.test.js and report/summary.js')).toEqual([
    'runner/api/plan.js: test/unit/run-experiments.test.js',
  ]);
});
