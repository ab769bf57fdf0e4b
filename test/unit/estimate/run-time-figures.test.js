// The run times shipped with the package: generated from the committed folders (never typed), and good enough that
// `plan` of the default file in a checkout with no results/ lands within a factor 1.5 of what that file really took
// (docs/settling/race-*: the mean of their run.json's first start to last end), from the cells measured there and,
// with those left out, from the capacity model's calibration alone. A race's length is its start rounds and as far as
// the races of those folders went (`likely_ms`), which is what a person waits for.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { plan } from '../../../runner/index.js';
import { preparePlan } from '../../../runner/api/plan.js';
import { outlinePlan } from '../../../runner/plan/outline.js';
import { readBenchFigures, readShippedRunTimes } from '../../../runner/estimate/estimate.js';
import { buildRunTimeFigures, FIGURES_FILE, ROOT } from '../../../scripts/lib/run-time-figures.js';

const RACES = readdirSync(join(ROOT, 'docs/settling')).filter((name) => name.startsWith('race-'));
const infos = RACES.map((name) => JSON.parse(readFileSync(join(ROOT, 'docs/settling', name, 'run.json'), 'utf8')));
const info = infos[0];
const realMs =
  infos.reduce((sum, each) => sum + Date.parse(each.finished_at) - Date.parse(each.started_at), 0) / infos.length;

test('runner/estimate/run-time-figures.json is what the committed folders give (node scripts/write-run-time-figures.js)', () => {
  expect(JSON.parse(readFileSync(FIGURES_FILE, 'utf8'))).toEqual(buildRunTimeFigures());
});

test('plan of the default file with no earlier folder: within a factor 1.5 of the real time, and says where from', async () => {
  const planned = await plan(join(ROOT, 'experiments.yml'), {
    seed: 1,
    resultsRoot: mkdtempSync(join(tmpdir(), 'no-results-')),
  });
  const ratio = planned.estimate.likely_ms / realMs;
  expect({ ratio, within: ratio > 1 / 1.5 && ratio < 1.5 }).toEqual({ ratio, within: true });
  expect(planned.estimate.lower_bound).toBe(false);
  expect(planned.estimate.likely_from).toEqual(RACES.map((name) => `docs/settling/${name}`).sort());
  expect(planned.estimate.likely_runs).toBeGreaterThan(planned.count);
  expect(planned.estimate.likely_runs).toBeLessThanOrEqual(planned.count + planned.up_to_more);
  const [{ estimate }] = planned.experiments;
  expect(estimate.sources.every((source) => source.shipped && source.host.cpus === info.host.cpus)).toBe(true);
  expect(estimate.sources.map((source) => source.folder)).toEqual(
    expect.arrayContaining([expect.stringMatching(/^docs\/settling\/race-\d$/)]),
  );
});

test('the capacity model alone (no cell measured) is within a factor 1.5 too', async () => {
  const prepared = await preparePlan(join(ROOT, 'experiments.yml'), { seed: 1 });
  const shipped = readShippedRunTimes();
  const { estimate } = outlinePlan(prepared.plans[0], {
    pending: prepared.pending,
    bench: readBenchFigures(),
    sources: [{ ...shipped, cells: {} }],
    hostCpus: info.host.cpus,
    lanes: 1,
  });
  expect(estimate.model_cells).toBe(prepared.plans[0].cells.length);
  const ratio = estimate.likely_ms / realMs;
  expect({ ratio, within: ratio > 1 / 1.5 && ratio < 1.5 }).toEqual({ ratio, within: true });
});
