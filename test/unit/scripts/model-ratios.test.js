// Every model ratio beside its measurement, and whether the measurement could have proven it wrong
// (scripts/lib/model-ratios.js, scripts/model-check-doc.js): on the busy-host folders of docs/model-check (copied to
// the fixtures) no cell had its budget free, so none tests the model; a cell allowed less than the host had free does.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readResults } from '../../../runner/results/read-results.js';
import { countAgreement, listModelRatios, measureHeadroom } from '../../../scripts/lib/model-ratios.js';
import { main as writeModelCheck } from '../../../scripts/model-check-doc.js';

const fixture = (name) => fileURLToPath(new URL(`../../fixtures/results/${name}`, import.meta.url));
const run = (fields) => ({ wall_ms: 1000, cpu_total_ms: 500, ...fields });

test("a cell's budget against what the rest of the host left free, over its runs", () => {
  const cell = (cpus, runs) => ({ values: { cpus }, runs });
  // 1 CPU of a 2-CPU host while the others took 0.2: 1.8 free, the budget below it.
  expect(measureHeadroom(cell(1, [run({ host_other_cpu_ms: 200 })]), 2)).toMatchObject({
    allowed: 1,
    free: 1.8,
    spare: true,
  });
  // The whole host: never below what is free, whatever the others took.
  expect(measureHeadroom(cell(2, [run({ host_other_cpu_ms: 0 })]), 2).spare).toBe(false);
  // A load generator sharing the CPUs takes its recorded share; one on CPUs of its own takes nothing of the cell's.
  const shared = run({ host_other_cpu_ms: 0, loader_cpus: 1, loader_cpu_ms: 950, loader_shared: true });
  expect(measureHeadroom(cell(1, [shared]), 2)).toMatchObject({ free: 1.05, spare: false });
  expect(measureHeadroom(cell(1, [{ ...shared, loader_shared: false }]), 2).spare).toBe(true);
  // A load generator whose CPU the runs did not record: what was free is not known.
  expect(measureHeadroom(cell(1, [run({ host_other_cpu_ms: 0, loader_cpus: 1 })]), 2).spare).toBeNull();
});

test('the busy-host folder: every step with its model ratio, none on budgets below what was free', () => {
  const folder = readResults(fixture('model-check'), { keepDisturbed: true });
  const rows = listModelRatios(folder);
  expect(rows.length).toBe(7);
  for (const row of rows) {
    expect(row.off).toBeCloseTo(row.comparison.ratio / row.model, 10);
    expect(row.agrees).toBe(Math.abs(row.off - 1) <= 0.1);
    expect(row.spare).toBe(false);
  }
  expect(countAgreement(rows)).toMatch(
    /^\d of 7 model ratios within 10% of the measured ratio; where both cells' budgets were below what the host had free \(the model can be wrong there\): none$/,
  );
});

test('docs/model-check/README.md: its block from the folders, the spare-capacity ones apart', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-model-check-'));
  cpSync(fixture('model-check'), join(dir, 'model-check'), { recursive: true });
  mkdirSync(join(dir, 'spare'));
  writeFileSync(
    join(dir, 'README.md'),
    'intro\n<!-- model-check:ratios:start -->\nSTALE\n<!-- model-check:ratios:end -->\n',
  );
  await writeModelCheck(['--dir', dir], { stdout: { write: () => {} } });
  const page = readFileSync(join(dir, 'README.md'), 'utf8');
  expect(page).toMatch(/^\*\*On the busy host\*\* \(1 folder, every run counted\): \d of 7 model ratios/m);
  expect(page).toContain('**With spare capacity** (0 folders under spare/): not run yet');
  expect(page).toMatch(/^\| wall_ms: cpus 1 → 2 \| uv_threadpool_size=1 \| [\d.]+ \[/m);
  expect(page).not.toContain('STALE');
});
