// A pivot → an SVG heatmap: one rectangle per (row, column) coloured by value (viridis), the value written
// in it, axis titles with units and a colour legend. Built here, not in the browser, so it needs no script.
import { escapeHtml } from './html-escape.js';
import { axisLabel, findMetric } from '../domain/metrics.js';
import { formatPivotValue, formatAxisValue } from './pivot.js';
import { formatNumber } from './format.js';

const VIRIDIS = ['#440154', '#3b528b', '#21918c', '#5ec962', '#fde725'];
const CELL = { width: 84, height: 34 };
const LEGEND_MIN = 68;
const MARGIN = { top: 34, bottom: 58, left: 64 };

export function renderHeatmap(pivot, { id }) {
  const { rowValues, columnValues, values } = pivot;
  const numbers = values.flat().filter((value) => value !== null);
  const low = Math.min(...numbers);
  const high = Math.max(...numbers);
  const { unit, better } = findMetric(pivot.metric);
  const valueTitle = formatPivotValue(pivot);
  // Room on the right for the legend: its bar, value labels, and its title written below the bar.
  const right = 40 + Math.max(110, valueTitle.length * 8.5);
  const width = MARGIN.left + columnValues.length * CELL.width + right;
  const height = MARGIN.top + Math.max(rowValues.length * CELL.height, LEGEND_MIN) + MARGIN.bottom;
  const gridBottom = MARGIN.top + rowValues.length * CELL.height;
  const gridRight = MARGIN.left + columnValues.length * CELL.width;
  const parts = [];
  rowValues.forEach((rowValue, i) => {
    const y = MARGIN.top + i * CELL.height;
    parts.push(text(MARGIN.left - 8, y + CELL.height / 2, formatAxisValue(rowValue), { anchor: 'end' }));
    columnValues.forEach((columnValue, j) => {
      const x = MARGIN.left + j * CELL.width;
      const value = values[i][j];
      const fill = value === null ? '#e6e6e6' : colourAt(high === low ? 0.5 : (value - low) / (high - low));
      const tooltip = `${pivot.rows}=${formatAxisValue(rowValue)}${pivot.columns ? `, ${pivot.columns}=${formatAxisValue(columnValue)}` : ''}: ${value === null ? 'no data' : `${formatNumber(value)} ${unit}`}`;
      parts.push(
        `<rect x="${x}" y="${y}" width="${CELL.width - 2}" height="${CELL.height - 2}" fill="${fill}"><title>${escapeHtml(tooltip)}</title></rect>`,
      );
      parts.push(
        text(x + CELL.width / 2 - 1, y + CELL.height / 2, value === null ? '–' : formatNumber(value), {
          anchor: 'middle',
          fill: isDark(fill) ? '#fff' : '#111',
        }),
      );
    });
  });
  columnValues.forEach((columnValue, j) => {
    parts.push(
      text(
        MARGIN.left + j * CELL.width + CELL.width / 2,
        gridBottom + 16,
        pivot.columns ? formatAxisValue(columnValue) : '',
        { anchor: 'middle' },
      ),
    );
  });
  // A one-axis pivot has no column title: the legend already names the value. A title wider than a
  // narrow grid starts at the grid's left edge instead of being centred off the picture.
  if (pivot.columns) {
    const title = axisLabel(pivot.columns);
    const fits = title.length * 7.5 <= gridRight - MARGIN.left;
    parts.push(
      text(fits ? (MARGIN.left + gridRight) / 2 : MARGIN.left, gridBottom + 42, title, {
        anchor: fits ? 'middle' : 'start',
        weight: 'bold',
      }),
    );
  }
  // Above the row labels, not rotated beside them: a few rows are shorter than the title.
  parts.push(text(4, MARGIN.top - 16, `↓ ${axisLabel(pivot.rows)}`, { anchor: 'start', weight: 'bold' }));
  // A spread (stdev, cv) is not better or worse in the metric's direction.
  const direction = ['stdev', 'cv'].includes(pivot.stat) ? null : better;
  parts.push(
    ...legend(`${id}-scale`, gridRight + 24, MARGIN.top, gridBottom - MARGIN.top, {
      low,
      high,
      title: valueTitle,
      better: direction,
    }),
  );
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" id="${escapeHtml(id)}" class="heatmap" role="img" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="13">` +
    `<title>${escapeHtml(`${pivot.workload}: ${valueTitle} by ${pivot.rows}${pivot.columns ? ` and ${pivot.columns}` : ''}`)}</title>${parts.join('')}</svg>`
  );
}

function legend(gradientId, x, y, height, { low, high, title, better }) {
  const barHeight = Math.max(height, LEGEND_MIN);
  // Top of the bar is the highest value: the colours run from the last stop to the first.
  const stops = [...VIRIDIS]
    .reverse()
    .map((colour, i) => `<stop offset="${(i / (VIRIDIS.length - 1)) * 100}%" stop-color="${colour}"/>`)
    .join('');
  return [
    `<defs><linearGradient id="${escapeHtml(gradientId)}" x1="0" y1="0" x2="0" y2="1">${stops}</linearGradient></defs>`,
    `<rect x="${x}" y="${y}" width="14" height="${barHeight}" fill="url(#${escapeHtml(gradientId)})"/>`,
    text(x + 20, y + 6, formatNumber(high), { anchor: 'start' }),
    text(x + 20, y + barHeight - 6, formatNumber(low), { anchor: 'start' }),
    text(x, y + barHeight + 16, title, { anchor: 'start', weight: 'bold' }),
    better ? text(x, y + barHeight + 32, `${better} is better`, { anchor: 'start', fill: '#555' }) : '',
  ];
}

function text(x, y, content, { anchor, fill = '#111', weight = 'normal' }) {
  return `<text x="${x}" y="${y}" text-anchor="${anchor}" dominant-baseline="middle" fill="${fill}" font-weight="${weight}">${escapeHtml(content)}</text>`;
}

/** Viridis at t ∈ [0, 1], interpolated linearly between five stops. */
export function colourAt(t) {
  const position = Math.min(Math.max(t, 0), 1) * (VIRIDIS.length - 1);
  const index = Math.min(Math.floor(position), VIRIDIS.length - 2);
  const [a, b] = [VIRIDIS[index], VIRIDIS[index + 1]].map(parseHex);
  const mix = a.map((channel, k) => Math.round(channel + (b[k] - channel) * (position - index)));
  return `#${mix.map((channel) => channel.toString(16).padStart(2, '0')).join('')}`;
}

function parseHex(colour) {
  return [1, 3, 5].map((i) => Number.parseInt(colour.slice(i, i + 2), 16));
}

function isDark(colour) {
  const [r, g, b] = parseHex(colour);
  return 0.299 * r + 0.587 * g + 0.114 * b < 140;
}
