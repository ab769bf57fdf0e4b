// The advice never recommends a setting with no production twin without saying so. http-cores-threads (http,
// cpus × workers) stands for a service here: its run.json gets the `production:` map init writes (where production
// sets each knob). An axis the map does not name was added by hand: the answer says "added by hand: no production
// twin in this service", plainly, beside the recommendation and in its deploy words (domain/axes.js
// findProductionTwin). Your app in the lab's worker threads has no twin whatever the map says.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { advise } from '../../../runner/index.js';

const CORES = fileURLToPath(new URL('../../fixtures/results/http-cores-threads', import.meta.url));
const PLAINLY = 'production cannot run this setting as measured: workers has no production twin';

/** The folder copied, with `production:` in its config and, for `app`, the cells serving your app. */
function asService({ production, app = false }) {
  const dir = mkdtempSync(join(tmpdir(), 'production-twin-'));
  cpSync(CORES, dir, { recursive: true });
  const info = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
  if (production) info.config.production = production;
  if (app) for (const cell of info.cells) cell.params.app = { file: 'src/app.js', export: 'default' };
  writeFileSync(join(dir, 'run.json'), JSON.stringify(info));
  return dir;
}

const recommending = (advice) => advice.answers.filter((answer) => /^workers=[1-9]/.test(answer.recommended));

test('an axis production does not have (added by hand): said right after the recommendation, and how to deploy it', async () => {
  const advice = await advise(asService({ production: { cpus: 'k8s/deployment.yaml:21 limits.cpu' } }));
  const answers = recommending(advice);
  expect(answers.length).toBeGreaterThan(0);
  for (const answer of answers) {
    expect(answer.words).toMatch(
      new RegExp(`: (use|leading, not settled:) ${answer.recommended} — [^;]+, on \\d+ runs?; ${PLAINLY};`),
    );
    expect(answer.words).toContain(
      `to deploy it: ${answer.recommended}: added by hand: no production twin in this service (docs/own-code.md)`,
    );
  }
});

test('an axis production sets (named in `production:`): its deploy words, nothing said of a missing twin', async () => {
  const advice = await advise(
    asService({ production: { cpus: 'k8s/deployment.yaml:21 limits.cpu', workers: 'WORKERS in the environment' } }),
  );
  expect(recommending(advice).length).toBeGreaterThan(0);
  for (const answer of recommending(advice)) {
    expect(answer.words).not.toContain('no production twin');
    const n = answer.recommended.split('=')[1];
    expect(answer.words).toContain(`to deploy it: a pool of ${n} worker threads per process that the route hands`);
  }
});

test('a file that measures no particular service (no `production:`): the lab shape decides, as before', async () => {
  const advice = await advise(CORES);
  expect(recommending(advice).length).toBeGreaterThan(0);
  for (const answer of recommending(advice)) expect(answer.words).not.toContain('no production twin');
});

test('your app in worker threads: no production twin, said plainly', async () => {
  const advice = await advise(asService({ production: { workers: 'WORKERS in the environment' }, app: true }));
  const answers = recommending(advice);
  expect(answers.length).toBeGreaterThan(0);
  for (const answer of answers) {
    expect(answer.words).toMatch(new RegExp(`, on \\d+ runs?; ${PLAINLY};`));
    expect(answer.words).toContain(`to deploy it: ${answer.recommended}: no production twin (docs/own-code.md)`);
  }
});
