// How a verdict's words print a ratio or a model value: three significant digits, "?" where there is none.
// (The reports format their tables with report/format.js, a later stage.)

export function formatRatio(value) {
  return Number.isFinite(value) ? String(Number(value.toPrecision(3))) : '?';
}
