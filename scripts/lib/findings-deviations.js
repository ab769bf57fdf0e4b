// Every deviation from a post, generated from the claim's own fields (docs/findings.md, `findings:deviations`): the
// post's operation (its `post_setup.operation`, as printed) beside the workload's exact one (its describeTask, or
// the parameters it ran with); the packages the post names beside the workload image's (images/workload/
// package-lock.json); the runs a cell the claim was judged on beside docs/statistics.md's recommendation. Nothing
// here is typed: each side comes from a file.
import { existsSync, readFileSync } from 'node:fs';
import { getWorkload } from '../../runner/domain/workloads.js';
import { formatFlow } from '../../runner/config/values.js';
import { escapeCell } from './findings-format.js';

const LOCK = new URL('../../images/workload/package-lock.json', import.meta.url);
const STATISTICS = new URL('../../docs/statistics.md', import.meta.url);

// docs/statistics.md's line "**Recommended, from profile findings: `repetitions: 10`, …": the one home of the number.
const RECOMMENDED = /\*\*Recommended, from profile (\S+): `repetitions: (\d+)`/;

/** docs/statistics.md's recommended runs a cell for a grid whose claims should be decided, with its profile. */
export function readRecommendedRuns(file = STATISTICS) {
  if (!existsSync(file)) return null;
  const match = RECOMMENDED.exec(readFileSync(file, 'utf8'));
  return match ? { profile: match[1], repetitions: Number(match[2]) } : null;
}

/** The workload image's version of a package, from its lock file; null when the image has none. */
export function readImagePackage(name, file = LOCK) {
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, 'utf8')).packages?.[`node_modules/${name}`]?.version ?? null;
}

/**
 * What one task of the experiment does here, exactly: the workload's describeTask, else the parameters it ran with
 * (for a workload with a `work` choice, that work's own).
 */
export function describeOurOperation(workload, params = {}) {
  const module = getWorkload(workload);
  if (module?.describeTask) return module.describeTask(params);
  const work =
    typeof params.work === 'string' && params[params.work]
      ? { work: params.work, [params.work]: params[params.work] }
      : params;
  return `${workload} ${formatFlow(work)}`;
}

/**
 * The deviation rows of one claim: | claim | what | the post | here |.
 * @param {object} claim  normalized (post_setup)
 * @param {object} experiment  normalized (matrix, params)
 * @param {object[]} rows  the claim's judged rows (comparison n_a, n_b)
 * @param {{ repetitions: number, profile: string }|null} recommended
 */
export function listDeviations(claim, experiment, rows, recommended) {
  const label = escapeCell(claim.control ? `(control) ${claim.says}` : claim.says);
  const workload = experiment.matrix.workload?.[0];
  const lines = [];
  if (claim.post_setup?.operation)
    lines.push(
      `| ${label} | operation a task | \`${escapeCell(claim.post_setup.operation)}\` | ${escapeCell(describeOurOperation(workload, experiment.params?.[workload]))} |`,
    );
  for (const named of claim.post_setup?.packages ?? []) {
    const name = named.replace(/@[^@/]*$/, '') || named;
    const ours = readImagePackage(name);
    lines.push(
      `| ${label} | package | \`${escapeCell(named)}\` | ${ours ? `${name}@${ours} (the workload image's, images/workload/package-lock.json)` : "not among the workload image's packages"} |`,
    );
  }
  const counts = rows.flatMap((row) => [row.comparison?.n_a, row.comparison?.n_b]).filter(Number.isFinite);
  const fewest = counts.length ? Math.min(...counts) : null;
  if (recommended && fewest !== null && fewest < recommended.repetitions)
    lines.push(
      `| ${label} | runs a cell | not given | ${fewest}${Math.max(...counts) > fewest ? `–${Math.max(...counts)}` : ''} a cell: fewer than the ${recommended.repetitions} docs/statistics.md recommends for a grid whose claims should be decided (profile ${recommended.profile}) |`,
    );
  return lines;
}

export const DEVIATIONS_HEAD = ['| claim | what | the post | here |', '| --- | --- | --- | --- |'];
