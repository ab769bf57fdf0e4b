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
      const contradicts = axes.some((axis) => axis in entry && entry[axis] !== cells[i][axis]);
      if (contradicts) continue;
      Object.assign(result[i], entry);
      extended = true;
    }
    if (!extended) result.push({ ...entry });
  }
  return result;
}
