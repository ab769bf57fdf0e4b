// The capacity search's answer as people and files read it (`slo:`): per CPU budget, the setting that serves the most
// requests per second within the SLO, its bracket, each other setting's and Node's default — "cpus=1 (http): serves at
// most 180 req/s within p99 ≤ 50 ms with uv_threadpool_size=2 (95%; over it at 197 req/s); Node's default
// (uv_threadpool_size=4): at most 164 req/s". The brackets are runner/verdicts/capacity.js's, replayed from the folder
// exactly as the search judged them (rounds/capacity.js); this module only orders and words them.
import { formatSetting, NODE_DEFAULT, splitAxes } from '../verdicts/advice.js';
import { formatWhere, groupByAxes, isSet, sameValue } from '../cells/cell.js';
import { judgeCapacityCells } from '../rounds/capacity.js';

export const CAPACITY_COLUMNS = [
  'experiment',
  'workload',
  'budget',
  'setting',
  'status',
  'low',
  'high',
  'runs',
  'loader_shared',
  'rates',
  'words',
];

/**
 * @param {object} results  readResults(dir)
 * @returns {{ slo: object, answers: object[], rows: object[] }|null}  null: the folder's experiment has no `slo:`
 */
export function buildCapacity(results) {
  const config = results.info?.config;
  if (!config?.slo || !results.info?.cells) return null;
  const cells = results.info.cells.map((cell) => ({ ...cell, workload: cell.workload ?? cell.values.workload }));
  const plan = { experiment: config, cells, keepDisturbed: results.keepDisturbed };
  const judged = judgeCapacityCells(plan, results.runs);
  const { groupAxes, knobs } = splitAxes(cells, results.axes, undefined);
  const experiment = results.info.experiment ?? '';
  const answers = groupByAxes(cells, groupAxes).map((group) =>
    answerBudget(group, { judged, knobs, groupAxes, slo: config.slo, runs: results.runs }),
  );
  return {
    slo: config.slo,
    answers,
    rows: answers.flatMap((answer) =>
      answer.settings.map((setting) => ({
        experiment,
        workload: answer.workload,
        budget: answer.budget,
        setting: setting.label,
        status: setting.status,
        low: setting.low,
        high: setting.high,
        runs: setting.runs,
        loader_shared: answer.loader_shared,
        rates: setting.rates.map((rate) => `${rate.rate}:${rate.state}×${rate.n}`).join(' '),
        words: answer.words,
      })),
    ),
  };
}

function answerBudget(group, { judged, knobs, groupAxes, slo, runs }) {
  const settings = group
    .map((cell) => ({ cell, label: formatSetting(cell, knobs) || 'every cell', ...judged.get(cell.cell) }))
    // The most requests shown within the SLO first; a setting with none shown last; equals in the matrix's order.
    .sort((a, b) => (b.low ?? -1) - (a.low ?? -1));
  const best = settings[0].low === null ? null : settings[0];
  const fallback = settings.find((setting) =>
    knobs.every((axis) => matchesNodeDefault(axis, setting.cell.values[axis])),
  );
  const answer = {
    workload: group[0].workload,
    budget: formatWhere(
      group[0].values,
      groupAxes.filter((axis) => axis !== 'workload'),
    ),
    slo_ms: slo.p99_ms,
    status: settings.every((setting) => setting.status === 'settled') ? 'settled' : 'open',
    best,
    default: fallback ?? null,
    settings,
    // The load generator could run on the server's CPUs in a run of this budget: not the server's figures alone.
    loader_shared: runs.some((row) => group.some((cell) => cell.cell === row.cell) && row.loader_shared === true),
  };
  return { ...answer, words: formatCapacityAnswer(answer) };
}

// Node's own value of a knob (NODE_DEFAULT); an environment axis: unset.
function matchesNodeDefault(axis, value) {
  const wanted = NODE_DEFAULT[axis];
  return wanted === undefined ? !isSet(value) : sameValue(isSet(value) ? value : wanted, wanted);
}

/** One sentence per budget; every number a bracket end the search showed at 95%, or said to be not shown. */
export function formatCapacityAnswer(answer) {
  const head = `${answer.budget || 'every cell'} (${answer.workload}, p99 ≤ ${answer.slo_ms} ms)`;
  const parts = [];
  if (answer.best) {
    parts.push(`serves at most ${describeBracket(answer.best)} with ${answer.best.label}`);
    if (answer.default === answer.best) parts.push("that is Node's default");
  } else {
    parts.push('no setting is shown within the SLO at any rate tried yet');
  }
  if (answer.default && answer.default !== answer.best)
    parts.push(`Node's default (${answer.default.label}): ${describeShort(answer.default)}`);
  for (const setting of answer.settings.filter((each) => each !== answer.best && each !== answer.default))
    parts.push(`${setting.label}: ${describeShort(setting)}`);
  parts.push(answer.status === 'settled' ? 'settled' : describeOpen(answer));
  if (answer.loader_shared)
    parts.push(
      "not measured cleanly: the load generator ran on the server's CPUs (loader_shared), so these rates are what the server served with the loader beside it",
    );
  return `${head}: ${parts.join('; ')}.`;
}

function describeBracket(setting) {
  const over = setting.high === null ? 'no rate shown over it yet' : `over it at ${setting.high} req/s`;
  return `${setting.low} req/s within the SLO (95%; ${over})`;
}

function describeShort(setting) {
  if (setting.low === null)
    return setting.high === null
      ? 'nothing shown yet'
      : `not shown within the SLO at any rate tried, over it at ${setting.high} req/s`;
  return `at most ${setting.low} req/s${setting.high === null ? '' : ` (over it at ${setting.high})`}`;
}

function describeOpen(answer) {
  const open = answer.settings.filter((setting) => setting.status !== 'settled');
  const capped = open.filter((setting) => setting.stop === 'cap');
  return capped.length > 0
    ? `open: ${capped.map((setting) => setting.label).join(', ')} reached the cap of runs before the bracket was shown within the resolution`
    : `open: ${open.map((setting) => setting.label).join(', ')} still bracketing`;
}

/** A rate's p99 over its runs, how many counted and what it showed; a rate whose runs failed has none. */
export function formatP99(rate) {
  const p99 = Number.isFinite(rate.p99) ? `p99 ${rate.p99.toFixed(1)} ms` : 'no p99 (its runs failed)';
  return `${p99} ×${rate.n} ${rate.state}`;
}

/** The block the terminal prints (after a matrix, and `advise`). */
export function formatCapacityText(capacity) {
  const lines = [];
  for (const answer of capacity?.answers ?? []) {
    lines.push(answer.words);
    for (const setting of answer.settings) {
      const rates = setting.rates.map((rate) => `${rate.rate} req/s ${formatP99(rate)}`);
      lines.push(`  ${setting.label}: ${rates.length > 0 ? rates.join(', ') : 'no run counted'}`);
    }
  }
  return lines;
}
