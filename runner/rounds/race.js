// `search: race` (irace's F-Race, with the bound of verdicts/choose-setting.js): after the planned rounds, a budget
// runs on only while its answer is not done, and each round runs only the settings that can still change it — the
// cheaper candidates still in reach of the margin and, for each, the setting that binds its bound. A setting
// confidently more than `within` worse than another, one whose bound cannot reach the margin by the cap (futile),
// and one dearer than a settled recommendation run no more. Every round is one block: the bounds compare settings on
// the rounds both ran, so a setting that stopped early is never compared with a later, drifted best. The decision
// is a pure function of the rows, so a resumed folder continues exactly where it stopped.
import { listAxes } from '../cells/axes.js';
import { buildCell } from '../cells/cell.js';
import { adviseCells } from '../verdicts/advice.js';
import { DEFAULT_BOUND_RULE } from '../verdicts/choose-setting.js';

/**
 * @param {object} plan  one experiment's plan (cells, experiment: { recommend, adaptive, search }, keepDisturbed)
 * @param {object[]} rows  every row so far (typed)
 * @returns {{ dropped: { cell: string, label: string, round: number, why: string }[], open: Set<string> }}
 *   open: the cell ids the next round runs; dropped: the settings that stopped before the last round, with the round
 *   they last ran and why (as the answer now stands)
 */
export function replayRace(plan, rows) {
  const answers = answerRace(plan, rows);
  const open = new Set(answers.flatMap((answer) => answer.next_round ?? []));
  const lastRoundOf = (cell) =>
    Math.max(0, ...rows.filter((row) => row.cell === cell && row.warmup !== true).map((row) => Number(row.repetition)));
  const lastRound = Math.max(0, ...plan.cells.map(({ cell }) => lastRoundOf(cell)));
  const dropped = answers.flatMap((answer) =>
    answer.settings
      .filter((setting) => !open.has(setting.cell.cell) && lastRoundOf(setting.cell.cell) < lastRound)
      .filter((setting) => setting.state !== 'recommended')
      .map((setting) => ({
        cell: setting.cell.cell,
        label: `${[answer.budget, answer.workload].filter(Boolean).join(' · ')}: ${setting.label}`,
        round: lastRoundOf(setting.cell.cell),
        why: setting.reason ?? setting.state,
      })),
  );
  return { dropped, open };
}

/**
 * The race's answers as they stand on these rows: verdicts/advice.js's, one per budget, under the race's rule
 * (`plan.boundRule` in its place: the bound study of npm run bench:stats races candidate rules through this code).
 */
export function answerRace(plan, rows) {
  const sorting = { keepDisturbed: plan.keepDisturbed, disturbedAbove: plan.experiment.disturbed_above };
  const cells = plan.cells.map((cell) => buildCell(cell, rows, sorting));
  return adviseCells(cells, listAxes(plan), plan.experiment.recommend, {
    cap: plan.experiment.adaptive?.max_repetitions ?? null,
    rule: plan.boundRule ?? raceRule(plan.experiment),
  });
}

/**
 * The decision rule of a race: the chosen one, with the experiment's start rounds (`race.from_round`); its first look
 * and futility come no earlier than those.
 */
export function raceRule(experiment) {
  const n0 = experiment.race?.from_round ?? DEFAULT_BOUND_RULE.n0;
  return {
    ...DEFAULT_BOUND_RULE,
    n0,
    from: Math.max(n0, DEFAULT_BOUND_RULE.from),
    futilityFrom: Math.max(n0, DEFAULT_BOUND_RULE.futilityFrom),
  };
}
