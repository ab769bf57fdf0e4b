// A post's figure beside its measured twin (docs/findings.md, `findings:figure`): the figure as the post prints it
// ("31,836 KB", "1.8초", "87μs"), turned into the metric's unit, beside the median of the same quantity here with
// its interval, and ours ÷ the post's. The figure is a quote: `npm run check:quotes` finds each one in its post
// (listFigureQuotes). Nothing here is typed but the quote; the conversion factors are the units' own.
import { LabError } from '../../runner/errors.js';
import { orderValues } from '../../runner/cells/cell.js';
import { findMetric } from '../../runner/domain/metrics.js';
import { isMeasured } from '../../runner/domain/interference.js';
import { median } from '../../runner/stats/statistics.js';
import { formatCell, formatNumber } from './findings-format.js';
import { convertFigure, listFigureQuotes, readFigure } from '../../runner/domain/figures.js';

// The post's figures are read and converted by runner/domain/figures.js (the claims' figures are too).
export { listFigureQuotes, readFigure };

function convert(figure, metricUnit, override) {
  try {
    return convertFigure(figure, metricUnit, override);
  } catch (error) {
    error.message = `findings:figure ${error.message}`;
    throw error;
  }
}

/**
 * One row (or one per value of `by`) of a figures table: | what | the post | here | here ÷ post |.
 * @param {{ quote: string, what: string, metric: string, where?: string, by?: string, divide?: string, axis?: string,
 *   a?: string, b?: string, unit?: string }} args  the directive's
 * @param {object|null} folder  readResults of the experiment; null when not run yet
 */
export function renderFigure(args, folder) {
  const { quote, what, metric } = args;
  if (!quote || !what || !metric)
    throw new LabError('ERR_USAGE', 'findings:figure needs quote="…", what="…" and metric=…', {
      hint: 'e.g. <!-- findings:figure idle-memory post=000 quote="31,836 KB" what="bare process RSS" metric=rss_mb where=workers:0,cluster:0 -->',
    });
  const { unit } = findMetric(metric);
  const figures = listFigureQuotes(quote).map((text) => convert(readFigure(text), unit, args.unit));
  const increment = args.axis !== undefined;
  const post = increment ? (figures[1] - figures[0]) / (Number(args.b) - Number(args.a)) : figures[0];
  if (!Number.isFinite(post) || (increment && figures.length !== 2))
    throw new LabError(
      'ERR_USAGE',
      `findings:figure ${what}: expected ${increment ? 'two figures, "A..B",' : 'one figure'}`,
      {
        hint: 'an increment (axis=, a=, b=) quotes the post at a and at b: quote="31,836 KB..122,992 KB"',
      },
    );
  const [first, second] = listFigureQuotes(quote);
  const steps = Number(args.b) - Number(args.a);
  // The figure as printed, and in the metric's unit where that is another ("31,836 KB = 31.1 MiB").
  const same = !increment && (args.unit ?? readFigure(quote).unit) === unit;
  const converted = `${formatNumber(post)}${unit ? ` ${unit}` : ''}`;
  const postText = increment
    ? `(${second} − ${first}) ÷ ${steps} = ${converted}`
    : same
      ? quote
      : `${quote} = ${converted}`;
  if (!folder) return [`| ${what} | ${postText} | not run yet | |`];
  const pairs = (args.where ?? '')
    .split(',')
    .filter(Boolean)
    .map((pair) => pair.split(':'));
  const runs = folder.runs.filter(
    (run) => isMeasured(run, folder) && pairs.every(([axis, value]) => String(run[axis]) === value),
  );
  const groups = args.by ? orderValues(runs.map((run) => run[args.by])) : [undefined];
  const divide = Number(args.divide ?? 1);
  return groups.map((value) => {
    const own = args.by ? runs.filter((run) => run[args.by] === value) : runs;
    const label = args.by ? `${what} (${args.by} ${value})` : what;
    if (increment) {
      const at = (level) => median(own.filter((run) => String(run[args.axis]) === level).map((run) => run[metric]));
      const [low, high] = [at(args.a), at(args.b)];
      const ours = (high - low) / (Number(args.b) - Number(args.a));
      return `| ${label} | ${postText} | (${formatNumber(high)} − ${formatNumber(low)}) ÷ ${steps} = ${formatNumber(ours)}${unit ? ` ${unit}` : ''} | ${formatNumber(ours / post)}× |`;
    }
    const values = own.map((run) => run[metric] / divide).filter(Number.isFinite);
    const ours = values.length ? median(values) : Number.NaN;
    const per = divide === 1 ? '' : `, each of ${divide}`;
    return `| ${label} | ${postText} | ${formatCell(values, unit)}${per} | ${formatNumber(ours / post)}× |`;
  });
}
