// A chart with more series than colours can tell apart becomes small multiples: one panel per value of one axis,
// the other axes' combinations as the series of every panel, each in the same colour in every panel.
import { listPivotAxes } from '../domain/axes.js';
import { groupByAxes, orderValues } from '../cells/cell.js';
import { formatCellValues } from './format.js';

/** More series than this in one chart and colours repeat (the Okabe–Ito palette has 8). */
export const MAX_SERIES = 8;

/**
 * @param {object[]} cells  [{ cell, values }] in cell order
 * @param {string[]} axes   the axes that vary among them
 * @returns {{ axis: string|null, panels: { title: string, cells: object[] }[], labelOf: (cell) => string,
 *   colourOf: (cell) => number }}  axis: the panel axis, null for one panel; colourOf: the index of the cell's
 *   series among every panel's series (the same combination, the same colour)
 */
export function splitPanels(cells, axes) {
  const axis = cells.length > MAX_SERIES ? choosePanelAxis(cells, axes) : null;
  const seriesAxes = axes.filter((other) => other !== axis);
  const labelOf = (cell) => formatCellValues(cell.values, seriesAxes) || cell.cell;
  const labels = [...new Set(cells.map(labelOf))];
  const colourOf = (cell) => labels.indexOf(labelOf(cell));
  if (!axis) return { axis, panels: [{ title: '', cells }], labelOf, colourOf };
  const order = orderValues(cells.map((cell) => cell.values[axis]));
  const panels = groupByAxes(cells, [axis])
    .sort((a, b) => order.indexOf(a[0].values[axis]) - order.indexOf(b[0].values[axis]))
    .map((group) => ({ title: `${axis}=${group[0].values[axis] ?? 'unset'}`, cells: group }));
  return { axis, panels, labelOf, colourOf };
}

// The axis whose values cut the series into at most MAX_SERIES panels of at most MAX_SERIES series each: a CPU
// axis first (cpus, cpuset, node: what one usually compares across), then the others; the one leaving the fewest
// panels; null if none does (then one chart, each series in its own colour).
function choosePanelAxis(cells, axes) {
  const preferred = [
    ...listPivotAxes('column').filter((axis) => axes.includes(axis)),
    ...axes.filter((axis) => !listPivotAxes('column').includes(axis)),
  ];
  const fits = preferred.filter((axis) => {
    const groups = groupByAxes(cells, [axis]);
    return groups.length <= MAX_SERIES && groups.every((group) => group.length <= MAX_SERIES);
  });
  if (fits.length === 0) return null;
  const panelsOf = (axis) => groupByAxes(cells, [axis]).length;
  return fits.reduce((best, axis) => (panelsOf(axis) < panelsOf(best) ? axis : best));
}
