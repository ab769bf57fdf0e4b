// How a numeric axis is spaced, one rule for report.html's charts and the SVG charts of docs/findings.md: values
// that are all powers of two (pool sizes 1, 2, 4, 8, 32; cpus 0.5, 1, 2) or span 8× or more sit on a log2 axis,
// where each doubling is one step; other numbers on a linear axis; text values are evenly spaced categories.

/**
 * @param {unknown[]} values  the axis values (distinct, any order)
 * @returns {'category'|'linear'|'log2'}
 */
export function chooseAxisScale(values) {
  if (values.length === 0 || !values.every((value) => typeof value === 'number' && Number.isFinite(value)))
    return 'category';
  if (values.length < 3 || !values.every((value) => value > 0)) return 'linear';
  const powersOfTwo = values.every((value) => Number.isInteger(Math.log2(value)));
  return powersOfTwo || Math.max(...values) / Math.min(...values) >= 8 ? 'log2' : 'linear';
}
