// The folders are the pipeline (docs/architecture.md): config → plan → docker (run) → collect → results →
// report, over shared tables. A module imports its own stage, earlier stages and the shared layer, never a
// later stage; the image's code never imports the runner. Read from the import lines, so a change that
// breaks the direction fails here rather than in a review.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LAYERS = [
  ['runner/errors.js'],
  ['runner/domain/', 'runner/stats/', 'runner/verdicts/', 'runner/model/', 'images/workload/'],
  ['runner/config/'],
  ['runner/plan/'],
  ['runner/docker/', 'images/base/'],
  ['runner/collect/'],
  ['runner/results/'],
  ['runner/report/'],
  ['runner/'], // the orchestration on top: run-matrix.js, run-experiments.js, progress.js, command.js, cli.js
];

function layerOf(path) {
  return LAYERS.findIndex((prefixes) => prefixes.some((prefix) => path === prefix || (prefix.endsWith('/') && path.startsWith(prefix))));
}

function listModules(dir) {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : listModules(path);
    return entry.name.endsWith('.js') ? [path] : [];
  });
}

function importsOf(path) {
  const text = readFileSync(join(ROOT, path), 'utf8');
  return [...text.matchAll(/(?:from\s*|import\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)].map(([, spec]) => relative(ROOT, normalize(join(ROOT, dirname(path), spec))));
}

const edges = [...listModules('runner'), ...listModules('images/workload')].flatMap((from) => importsOf(from).map((to) => ({ from, to })));

test('the import lines were read', () => {
  expect(edges.length).toBeGreaterThan(100);
  for (const { from, to } of edges) expect([from, layerOf(from), to, layerOf(to)]).not.toContain(-1);
});

test('no module imports a later stage of the pipeline', () => {
  const backwards = edges.filter(({ from, to }) => layerOf(to) > layerOf(from)).map(({ from, to }) => `${from} → ${to}`);
  expect(backwards).toEqual([]);
});

test('the image never imports the runner', () => {
  expect(edges.filter(({ from, to }) => from.startsWith('images/') && to.startsWith('runner/'))).toEqual([]);
});
