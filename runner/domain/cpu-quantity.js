// CPU amounts as people write them where production sets them: a number of CPUs (1.5, as `docker run --cpus`), or a
// Kubernetes CPU quantity ("1500m" millicores, "0.5", "2"). Everything after the config reads the number.

// A decimal with at most 3 places, or whole millicores; never zero. Kubernetes refuses a CPU amount finer than 1m
// (0.001 CPU), and so does the schema for a number (multipleOf 0.001).
export const CPU_QUANTITY_PATTERN = '^(?![0.]*m?$)([0-9]+(\\.[0-9]{1,3})?|\\.[0-9]{1,3}|[0-9]+m)$';

const QUANTITY = new RegExp(CPU_QUANTITY_PATTERN);

/** 1.5 → 1.5, "1500m" → 1.5, "0.5" → 0.5; undefined for anything else (0, -1, "1500x", "0m", 0.0005, true). */
export function parseCpuAmount(value) {
  if (typeof value === 'number') return value > 0 && isWholeMillis(value) ? roundMillis(value) : undefined;
  if (typeof value !== 'string' || !QUANTITY.test(value)) return undefined;
  return value.endsWith('m') ? roundMillis(Number(value.slice(0, -1)) / 1000) : roundMillis(Number(value));
}

function isWholeMillis(value) {
  return Number.isFinite(value) && Math.abs(value * 1000 - Math.round(value * 1000)) < 1e-6;
}

// 1500 / 1000 is exact, but 0.1 + 0.2 style remainders must not reach a cell id or a CSV column.
function roundMillis(value) {
  return Math.round(value * 1000) / 1000;
}
