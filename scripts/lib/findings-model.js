// Every model ratio docs/findings.md shows, beside its measurement (`findings:model-ratios`): each claim comparison
// with a capacity model, measured ÷ model, whether they agree within 10%, and whether the two cells' budgets were
// below what the host had free — where the model could have been wrong (scripts/lib/model-ratios.js).
import { countAgreement, describeAgreement, measureHeadroom, MODEL_AGREES } from './model-ratios.js';
import { escapeCell, formatNumber } from './findings-format.js';

/**
 * @param {{ experiment: string, rows: object[], cells: object[], hostCpus: number|null }[]} judged  per experiment,
 *   its claim rows (model_ratio, comparison, cells) and its summary cells
 * @returns {string[]}
 */
export function renderModelRatios(judged) {
  const rows = judged.flatMap(({ experiment, rows: claimRows, cells, hostCpus }) => {
    const byId = new Map(cells.map((cell) => [cell.cell, cell]));
    return claimRows
      .filter((row) => Number.isFinite(row.model_ratio) && Number.isFinite(row.comparison?.ratio))
      .map((row) => ({
        experiment,
        ...describeAgreement(
          row,
          row.model_ratio,
          row.cells.map((id) => measureHeadroom(byId.get(id), hostCpus)),
        ),
      }));
  });
  if (rows.length === 0) return ['(no claim comparison has a capacity model yet)'];
  return [
    `${countAgreement(rows)}.`,
    '',
    `| claim | compared | measured B / A [95% CI] | model | measured ÷ model | within ${Math.round(MODEL_AGREES * 100)}% | both budgets below what was free |`,
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(formatRow),
  ];
}

function formatRow(row) {
  const { ratio, ci95_low: low, ci95_high: high } = row.comparison;
  const label = `${row.experiment}: ${row.control ? '(control) ' : ''}${row.says}`;
  const compared = `${row.metric}: ${row.axis} ${row.a} → ${row.b}${row.where ? ` at ${row.where}` : ''}`;
  const spare = row.spare === true ? 'yes' : row.spare === false ? 'no' : "not known (the loader's CPU not recorded)";
  return `| ${escapeCell(label)} | ${escapeCell(compared)} | ${formatNumber(ratio)} [${formatNumber(low)}, ${formatNumber(high)}] | ${formatNumber(row.model)} | ${formatNumber(row.off)} | ${row.agrees ? 'yes' : '**no**'} | ${spare} |`;
}
