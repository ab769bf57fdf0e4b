// Numbers and text for people: 4 significant digits, no thousands separators (they confuse pasting).

export function formatNumber(value, digits = 4) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '';
  return String(Number(value.toPrecision(digits)));
}

export function formatPercent(fraction, digits = 3) {
  return typeof fraction === 'number' && Number.isFinite(fraction) ? `${formatNumber(fraction * 100, digits)}%` : '';
}

/** "pbkdf2 cpus=1 uv_threadpool_size=4": a cell's axis values, workload first, unset ones left out. */
export function formatCellValues(values, axes) {
  return axes
    .filter((axis) => values[axis] !== undefined && values[axis] !== null)
    .map((axis) => (axis === 'workload' ? String(values[axis]) : `${axis}=${values[axis]}`))
    .join(' ');
}
