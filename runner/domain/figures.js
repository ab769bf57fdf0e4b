// A published figure as its post prints it ("31,836 KB", "1.8초", "약 6MB", "13,285건") and in a metric's unit: the
// one reading of a post's number, for the figures a claim tests (verdicts/judge-figures.js) and the ones the findings
// page sets beside ours. The conversion factors are the units' own; nothing measured is typed here.
import { LabError } from '../errors.js';

// The post's unit → the metric's, by what one of the first is in the second. ps prints KB that are KiB, and the post
// that reads them says MB for MiB.
export const FIGURE_CONVERSIONS = {
  MiB: { KB: 1 / 1024, MB: 1, MiB: 1 },
  ms: { ms: 1, s: 1000, 초: 1000, μs: 0.001, µs: 0.001 },
  // The post's 건 and 개 count requests in a second (초당): req/s.
  'req/s': { '': 1, 건: 1, 개: 1, 'req/s': 1 },
};

const FIGURE = /(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*([A-Za-zμµ가-힣/]*)/u;

/** "31,836 KB" → { value: 31836, unit: 'KB' }; "1.8초" → { value: 1.8, unit: '초' }; "약 6MB" → 6, 'MB'. */
export function readFigure(text) {
  const match = FIGURE.exec(text);
  if (!match) throw new LabError('ERR_USAGE', `the figure "${text}" holds no number`);
  return { value: Number(match[1].replaceAll(',', '')), unit: match[2] };
}

/** The figures a quote names, as printed: one, or two for an increment ("31,836 KB..122,992 KB"). */
export function listFigureQuotes(quote) {
  return String(quote ?? '')
    .split('..')
    .map((part) => part.trim())
    .filter(Boolean);
}

/**
 * A figure in the metric's unit.
 * @param {{ value: number, unit: string }} figure  readFigure's
 * @param {string} metricUnit
 * @param {string} [override]  the post's unit where the figure does not print it next to the number
 */
export function convertFigure({ value, unit }, metricUnit, override) {
  const from = override ?? unit;
  const factor = FIGURE_CONVERSIONS[metricUnit]?.[from];
  if (factor === undefined)
    throw new LabError('ERR_USAGE', `cannot turn "${from}" into ${metricUnit || 'a unitless metric'}`, {
      hint: `write the post's unit with unit=… (known: ${Object.keys(FIGURE_CONVERSIONS[metricUnit] ?? {}).join(', ') || 'none'})`,
    });
  return value * factor;
}
