// Matrix expansion with GitHub Actions `strategy.matrix` semantics, so people can reuse what they
// already know: the cartesian product of the axes (first axis varies slowest), then `exclude`, then
// `include`. Pure and order-stable: the same config always gives the same cells in the same order.

/** @typedef {Record<string, string | number | boolean>} Cell  axis name → value */

/**
 * @param {Record<string, Array<string|number|boolean>>} matrix  axis → values, in file order
 * @param {{ include?: Cell[], exclude?: Cell[] }} [lists]
 * @returns {Cell[]}
 */
export function expandMatrix(matrix, { include = [], exclude = [] } = {}) {
  const axes = Object.keys(matrix);
  const product = cartesianProduct(axes, matrix);
  const kept = product.filter((cell) => !exclude.some((entry) => matchesEntry(cell, entry)));
  return applyIncludes(kept, axes, include);
}

function cartesianProduct(axes, matrix) {
  if (axes.length === 0) return [];
  return axes.reduce(
    (cells, axis) => cells.flatMap((cell) => matrix[axis].map((value) => ({ ...cell, [axis]: value }))),
    [{}],
  );
}

function matchesEntry(cell, entry) {
  return Object.entries(entry).every(([axis, value]) => cell[axis] === value);
}

// An include entry extends every combination whose ORIGINAL matrix values it does not contradict
// (values added by earlier includes may be overwritten); if it extends none, it becomes a new one.
function applyIncludes(cells, axes, include) {
  const result = cells.map((cell) => ({ ...cell }));
  const originalCount = result.length;
  for (const entry of include) {
    let extended = false;
    for (let i = 0; i < originalCount; i++) {
      if (!extendsCell(entry, axes, cells[i])) continue;
      Object.assign(result[i], entry);
      extended = true;
    }
    if (!extended) result.push({ ...entry });
  }
  return result;
}

function extendsCell(entry, axes, cell) {
  return !axes.some((axis) => axis in entry && entry[axis] !== cell[axis]);
}

/**
 * For each include entry, how many of the matrix's own combinations (after exclude) it extends, out of
 * how many: 0 means it adds a new combination, all of them usually means a cell was meant to be added.
 * @returns {{ extended: number, of: number }[]}
 */
export function countIncludeExtensions(matrix, { include = [], exclude = [] } = {}) {
  const axes = Object.keys(matrix);
  const kept = cartesianProduct(axes, matrix).filter((cell) => !exclude.some((entry) => matchesEntry(cell, entry)));
  return include.map((entry) => ({
    extended: kept.filter((cell) => extendsCell(entry, axes, cell)).length,
    of: kept.length,
  }));
}
