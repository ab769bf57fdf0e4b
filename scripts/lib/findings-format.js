// How docs/findings.md writes a number and a cell's median, one place for the page and its tables.
import { intervalOfMedian } from '../../runner/stats/median-interval.js';
import { median } from '../../runner/stats/statistics.js';

// Three significant digits: enough to compare, no false precision.
export function formatNumber(value) {
  if (!Number.isFinite(value)) return '—';
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : Math.abs(value) >= 1 ? 2 : 3;
  return value.toFixed(digits);
}

/**
 * "54.1 [54.0, 54.2] 94% (n 5)": the median, the interval of the median (its coverage where below 95%), n; with a
 * unit, "54.1 MiB [54.0, 54.2] …".
 */
export function formatCell(values, unit = '') {
  const sample = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sample.length === 0) return '—';
  const center = `${formatNumber(median(sample))}${unit ? ` ${unit}` : ''}`;
  const interval = intervalOfMedian(sample);
  if (!interval) return `${center} (n ${sample.length})`;
  const coverage = interval.coverage < 0.95 ? ` ${Math.round(interval.coverage * 100)}%` : '';
  return `${center} [${formatNumber(interval.low)}, ${formatNumber(interval.high)}]${coverage} (n ${sample.length})`;
}

/** Text for a Markdown table cell: pipes escaped, on one line. */
export function escapeCell(text) {
  return String(text ?? '')
    .replaceAll('|', '\\|')
    .replaceAll('\n', ' ');
}
