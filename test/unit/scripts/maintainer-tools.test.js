// scripts/ is the maintainers' room: each script has its line in scripts/README.md, and every page that says it is
// generated is written by a step of `npm run docs` (scripts/docs.js) or by a benchmark from a fresh measurement.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { listSteps, MEASURED_PAGES } from '../../../scripts/docs.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const read = (path) => readFileSync(`${ROOT}${path}`, 'utf8');

test('scripts/README.md names every script', () => {
  const readme = read('scripts/README.md');
  const scripts = readdirSync(`${ROOT}scripts`).filter((name) => name.endsWith('.js'));
  expect(scripts.filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
});

test('every docs page that says it is generated has a step in npm run docs, or is a benchmark page', () => {
  const pages = readdirSync(`${ROOT}docs`)
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`)
    .filter((path) => /^(Generated|Written) by /m.test(read(path)));
  const written = listSteps(ROOT).flatMap((step) => step.writes);
  const covered = (page) => written.includes(page) || page in MEASURED_PAGES;
  expect(pages.length).toBeGreaterThan(3);
  expect(pages.filter((page) => !covered(page))).toEqual([]);
});

test("every results folder under docs/ gets its reports rebuilt; the published ones by the file's claims", () => {
  const reports = listSteps(ROOT).filter((step) => step.argv.includes('report'));
  expect(reports.flatMap((step) => step.argv)).toEqual(
    expect.arrayContaining([
      'docs/settling/default-experiments',
      'docs/findings/pbkdf2-waves',
      'docs/model-check/model-check',
    ]),
  );
  const published = reports.find((step) => step.argv.includes('docs/findings/pbkdf2-waves'));
  expect(published.argv.slice(-2)).toEqual(['--config', 'published-experiments.yml']);
  const modelCheck = reports.find((step) => step.argv.includes('docs/model-check/model-check'));
  expect(modelCheck.argv.at(-1)).toBe('--keep-disturbed');
});
