// `search: race` (irace's F-Race, with this project's comparison method): after the planned rounds, only the
// settings of a budget whose advice is still open get another round, and from round `race.from_round` a setting the
// advice eliminates (confidently worse than the best by more than `within`, or confidently breaking a constraint)
// is dropped, and of the rest only the open settings and the best run on. A race is replayed from the rows alone —
// round k decided on the runs of rounds 1…k — so a resumed folder continues exactly where it stopped, and the report
// says when and why each setting was dropped.
import { AXIS_COLUMNS } from '../domain/axes.js';
import { isMeasured } from '../domain/interference.js';
import { adviseCells } from '../verdicts/advice.js';
import { countStatuses } from '../verdicts/failed-settings.js';

/**
 * @param {object} plan  one experiment's plan (cells, experiment: { recommend, race, search })
 * @param {object[]} rows  every row so far (typed)
 * @returns {{ dropped: { cell: string, label: string, round: number, why: string }[], open: Set<string> }}
 *   open: the cell ids of settings still in the race in a budget whose advice is open
 */
export function replayRace(plan, rows) {
  const { recommend, race } = plan.experiment;
  // The runs a statistic counts (disturbed ones out, unless --keep-disturbed): the same the reports compare.
  const measured = rows.filter((row) => isMeasured(row, { keepDisturbed: plan.keepDisturbed }));
  const axes = listAxes(plan);
  const cellsUpTo = (round, without) =>
    plan.cells
      .filter(({ cell }) => !without.has(cell))
      .map(({ cell, values, workload }) => ({
        cell,
        values,
        workload,
        runs: measured.filter((row) => row.cell === cell && Number(row.repetition) <= round),
        // A setting out of memory is dropped, not run again and again (verdicts/failed-settings.js).
        statuses: countStatuses(rows.filter((row) => row.cell === cell && Number(row.repetition) <= round)),
      }));
  const dropped = new Map();
  const lastRound = Math.max(0, ...rows.filter((row) => row.warmup !== true).map((row) => Number(row.repetition)));
  for (let round = race.from_round; round <= lastRound; round++) {
    for (const answer of adviseCells(cellsUpTo(round, dropped), axes, recommend)) {
      for (const setting of answer.eliminated)
        dropped.set(setting.cell.cell, {
          cell: setting.cell.cell,
          label: `${answer.budget ? `${answer.budget}: ` : ''}${setting.label}`,
          round,
          why: setting.why,
        });
    }
  }
  // Up to the first round that may drop, every setting of an open budget runs (F-Race's first rounds). After it
  // only the questions still open get runs: each open setting and the best it is compared with. A setting already
  // as good as the best, or already eliminated, would only add runs to an answer they no longer change; if the best
  // changes, they are judged against the new one and run again if that reopens them.
  const focused = lastRound >= race.from_round;
  const open = new Set(
    adviseCells(cellsUpTo(Infinity, dropped), axes, recommend)
      .filter((answer) => answer.status === 'open')
      .flatMap((answer) =>
        (focused ? [answer.best, ...answer.open] : answer.settings).filter(Boolean).map((setting) => setting.cell.cell),
      ),
  );
  // A setting with no measured run yet has no answer: it is open until it has one.
  for (const { cell } of plan.cells)
    if (!dropped.has(cell) && !measured.some((row) => row.cell === cell)) open.add(cell);
  return { dropped: [...dropped.values()], open };
}

function listAxes(plan) {
  const keys = new Set(plan.cells.flatMap((cell) => Object.keys(cell.values)));
  return [
    ...AXIS_COLUMNS.filter((axis) => keys.has(axis)),
    ...[...keys].filter((axis) => !AXIS_COLUMNS.includes(axis)).sort(),
  ];
}
