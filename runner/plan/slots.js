// `--slots N`: an engine's CPUs cut into N disjoint cpusets, so N runs can go at once without
// sharing a core. A cell's `cpuset` is then read relative to its slot ("0" = the slot's first CPU) and
// a run without one is confined to its slot; `cpus` (a CFS quota) must fit in the slot. With one slot
// nothing changes: `cpuset` names the engine's own CPU ids, as it always did.
import { formatCpuIds, parseCpuList } from '../../images/workload/lib/cpuset.js';
import { LabError } from '../errors.js';

/**
 * @typedef {{ index: number, cpuIds: number[], cpuset: string }} Slot
 * @returns {Slot[]}  contiguous, equal slots; CPUs left over by the division stay unused
 */
export function cutSlots(cpuIds, count, engineName = 'the engine') {
  const ids = [...cpuIds].sort((a, b) => a - b);
  if (!Number.isInteger(count) || count < 1 || count > ids.length) {
    throw new LabError(
      'ERR_USAGE',
      `--slots ${count}: engine ${engineName} has ${ids.length} CPU(s) (${formatCpuIds(ids)}), so at most ${ids.length} slot(s) of one CPU each`,
      {
        hint: `pass --slots between 1 and ${ids.length}`,
      },
    );
  }
  const size = Math.floor(ids.length / count);
  return Array.from({ length: count }, (_, index) => {
    const slotIds = ids.slice(index * size, (index + 1) * size);
    return { index, cpuIds: slotIds, cpuset: formatCpuIds(slotIds) };
  });
}

/** The run's limits on its slot: a relative cpuset made absolute, no cpuset made the slot's. */
export function placeLimits(limits, slot, slotCount) {
  if (slotCount <= 1) return limits;
  const relative = limits.cpusetCpus === undefined ? undefined : parseCpuList(limits.cpusetCpus);
  const cpusetCpus = relative ? formatCpuIds(relative.map((id) => slot.cpuIds[id])) : slot.cpuset;
  return { ...limits, cpusetCpus };
}

/**
 * Every cell that may run on an engine must fit each of that engine's slots. Returns the problems,
 * each naming the cell, where its value is written and what fits.
 * @param {{ experiment: object, cells: object[] }} plan
 * @param {{ name: string, slots: Slot[], facts: { cpu_ids: number[] } }[]} engines
 */
export function checkCellsFit(plan, engines) {
  const problems = [];
  for (const cell of plan.cells) {
    for (const engine of engines) {
      if (cell.values.engine !== undefined && cell.values.engine !== engine.name) continue;
      const problem = checkCellFits(cell, engine, plan.experiment.name);
      if (problem)
        problems.push({
          ...problem,
          path: problem.path ?? locateCellValue(plan.experiment, cell.values, problem.axis),
        });
    }
  }
  return problems;
}

function checkCellFits(cell, engine, experimentName) {
  const slotCount = engine.slots.length;
  const slot = engine.slots[0];
  const size = slot.cpuIds.length;
  const { cpus, cpuset } = cell.values;
  // With one slot a cpuset names the engine's CPU ids; with several, positions in the slot.
  const allowed = slotCount > 1 ? slot.cpuIds.map((_, i) => i) : slot.cpuIds;
  const where =
    slotCount > 1
      ? `a slot of engine ${engine.name} (--slots ${slotCount}: ${size} CPU(s) each, ${engine.slots.map((s) => s.cpuset).join(' | ')})`
      : `engine ${engine.name} (${size} CPU(s): ${slot.cpuset})`;
  const fits = `what fits: cpus up to ${size}, cpuset within ${formatCpuIds(allowed)}${slotCount > 1 ? " (counted from the slot's first CPU)" : ''}`;
  const describe = `cell ${cell.cell} (${Object.entries(cell.values)
    .map(([axis, value]) => `${axis}=${value}`)
    .join(' ')})`;
  if (cpus !== undefined && cpus > size)
    return { axis: 'cpus', message: `${describe}: cpus ${cpus} does not fit ${where}; ${fits}` };
  if (cpuset !== undefined) {
    const outside = parseCpuList(cpuset).filter((id) => !allowed.includes(id));
    if (outside.length > 0)
      return {
        axis: 'cpuset',
        message: `${describe}: cpuset "${cpuset}" names CPU ${formatCpuIds(outside)}, outside ${where}; ${fits}`,
      };
  }
  // The http load generator's own CPU list is read the same way (plan/loader-limits.js).
  const loaderCpuset = cell.params?.loader?.cpuset;
  if (loaderCpuset !== undefined && loaderCpuset !== 'auto' && loaderCpuset !== 'none') {
    const outside = parseCpuList(loaderCpuset).filter((id) => !allowed.includes(id));
    if (outside.length > 0)
      return {
        path: ['experiments', experimentName, 'params', 'http', 'loader', 'cpuset'],
        message: `${describe}: params.http.loader.cpuset "${loaderCpuset}" names CPU ${formatCpuIds(outside)}, outside ${where}; ${fits}`,
      };
  }
  return undefined;
}

/** Where the cell's value of `axis` is written: the matrix list, else the include entry that set it. */
export function locateCellValue(experiment, values, axis) {
  const at = ['experiments', experiment.name];
  const list = experiment.matrix?.[axis];
  const index = Array.isArray(list) ? list.findIndex((value) => value === values[axis]) : -1;
  if (index >= 0) return [...at, 'matrix', axis, index];
  const entry = (experiment.include ?? []).findIndex((item) => item[axis] === values[axis]);
  return entry >= 0 ? [...at, 'include', entry, axis] : [...at, 'matrix'];
}
