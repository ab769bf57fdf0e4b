// Parameters written that no run reads: valid, so warned (plan-warnings.js), never refused. A workload's own
// parameters that it ignores in some combination are its module's to list (`findIgnoredParams`, http: `work` beside
// `app`); a workload's whole group that no cell runs is everyone's.
import { getWorkload } from '../domain/workloads.js';
import { isPlainObject } from '../config/values.js';

/**
 * @param {{ experiment: object, cells: { workload: string, params: object }[] }} plan
 * @param {object} rawExperiment  the experiment as written (config.raw)
 * @returns {{ path: (string|number)[], at: 'key', message: string, hint: string }[]}  paths from the experiment
 */
export function findIgnoredParams(plan, rawExperiment) {
  const written = isPlainObject(rawExperiment?.params) ? rawExperiment.params : {};
  const running = new Set(plan.cells.map((cell) => cell.workload));
  return Object.entries(written).flatMap(([workload, params]) => {
    if (!getWorkload(workload) || !isPlainObject(params)) return [];
    if (!running.has(workload)) {
      return [
        {
          path: ['params', workload],
          at: 'key',
          message: `\`params.${workload}\` is ignored: no cell runs the ${workload} workload`,
          hint: `add ${workload} to \`workload:\` in the matrix, or remove \`params.${workload}\``,
        },
      ];
    }
    const filled = plan.cells.find((cell) => cell.workload === workload).params;
    return (getWorkload(workload).findIgnoredParams?.(params, filled) ?? []).map((issue) => ({
      ...issue,
      path: ['params', workload, ...issue.path],
      at: 'key',
    }));
  });
}
