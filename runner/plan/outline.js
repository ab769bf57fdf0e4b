// One experiment's plan as a person reads it before it runs: a table of its cells (the axes that vary as columns, the
// ones every cell shares said once), the runs planned for each and the most adaptive rounds or a race may add, the
// time each run is expected to take and where that figure comes from, the claims with their metrics, the advice's
// metric. Plain data: `plan --json` prints it, plan/format-plan.js turns it into the text.
import { sortByAxes, varyingAxes } from '../cells/cell.js';
import { describeQuestions } from './describe-questions.js';
import { estimatePlan, knownWorkloadMs } from '../estimate/estimate.js';
import { listAxes } from '../cells/axes.js';
import { countMostExtraRuns } from './most-runs.js';
import { describeLoad, describeSlo } from './describe-load.js';

/**
 * @param {{ experiment: object, cells: object[] }} plan
 * @param {{ pending: object[], bench: object|null, sources?: object[], hostCpus?: number|null, lanes: number }} context
 *   pending: this plan's runs still to do; sources: earlier folders' run times, most relevant first
 *   (api/previous-runs.js); bench: estimate.js readBenchFigures()
 */
export function outlinePlan(plan, { pending, bench, sources = [], hostCpus = null, lanes }) {
  const axes = listAxes(plan);
  const columns = varyingAxes(plan.cells, axes, { orAllSet: true });
  const shared = axes.filter((axis) => !columns.includes(axis) && plan.cells[0]?.values[axis] !== undefined);
  const most = countMostExtraRuns(plan);
  const estimate = estimatePlan(plan, { pending, extra: most.perCell, bench, sources, hostCpus, lanes });
  const planned = new Map();
  for (const run of pending) planned.set(run.cell, (planned.get(run.cell) ?? 0) + 1);
  const likely = expectRace(plan, { pending, most, estimate, sources });
  const { claims, advice } = describeQuestions(plan);
  return {
    axes: columns,
    shared: Object.fromEntries(shared.map((axis) => [axis, plan.cells[0].values[axis]])),
    table: sortByAxes(plan.cells, columns).map((cell) => {
      const run = estimate.perCell.get(cell.cell);
      return {
        cell: cell.cell,
        values: Object.fromEntries(columns.map((axis) => [axis, cell.values[axis] ?? null])),
        runs: planned.get(cell.cell) ?? 0,
        up_to_more: most.perCell.get(cell.cell),
        run_ms: run.ms === null ? null : Math.round(run.ms),
        run_ms_from: run.from,
        run_ms_source: run.source,
        run_ms_lower_bound: run.lowerBound,
      };
    }),
    planned: pending.length,
    warmup: plan.experiment.warmup ?? 0,
    repetitions: plan.experiment.repetitions,
    up_to_more: most.total,
    up_to_more_why: most.why,
    // The most time the matrix may spend waiting for a quiet host (run/busy-gate.js): a bound, like `up_to_more`.
    most_busy_wait_ms: (plan.experiment.busy_wait ?? 0) * 1000,
    estimate: {
      planned_ms: roundOrNull(estimate.planned_ms),
      up_to_more_ms: roundOrNull(estimate.extra_ms),
      // A race: the runs and time it will likely take, as the races of the folders named went (null for a grid).
      likely_runs: likely?.runs ?? null,
      likely_ms: likely ? roundOrNull(likely.ms) : null,
      likely_from: likely?.from ?? null,
      // A race of HTTP work with no HTTP race shipped: its likely length is not borrowed from CPU-bound races.
      likely_unknown: likely ? null : describeUnknownRace(plan, sources),
      lower_bound: estimate.lower_bound,
      measured_cells: estimate.measured_cells,
      model_cells: estimate.model_cells,
      cells: plan.cells.length,
      lanes: estimate.lanes,
      sources: listSources(estimate.perCell, sources),
      bench: bench ? { overhead_ms: bench.overhead_ms, startup_ms: bench.startup_ms, written: bench.written } : null,
      known_workloads: [
        ...new Set(
          plan.cells
            .filter((cell) => estimate.perCell.get(cell.cell).from === 'benchmark' && knownWorkloadMs(cell).ms > 0)
            .map((cell) => cell.workload),
        ),
      ],
    },
    claims,
    advice,
    service: describeService(plan),
    // What load the http cells put on their servers, each different description once; with `slo:`, the search.
    loads: [...new Set(plan.cells.filter((cell) => cell.workload === 'http').map((cell) => describeLoad(cell.params)))],
    slo: plan.experiment.slo ? describeSlo(plan.experiment) : null,
  };
}

// What the plan measures of a service: the request each distinct http app or start command is sent, and where
// production sets each knob (the experiment's `production:`, init's record of what it read); an axis the matrix
// varies that `production:` does not name was added by hand, with no production twin in this service.
function describeService({ experiment, cells }) {
  const requests = new Map();
  for (const cell of cells) {
    const { app, start, request: started } = cell.params ?? {};
    if (!app && start === undefined) continue;
    const request = { method: 'GET', path: '/', status: 200, ...(app ?? started) };
    const key = `${request.method} ${request.path} ${request.status}`;
    if (!requests.has(key))
      requests.set(key, {
        method: request.method,
        path: request.path,
        status: request.status,
        body: Boolean(request.body),
        to: app ? `${app.file} (export ${app.export ?? 'default'})` : [start].flat().join(' '),
      });
  }
  const production = experiment.production ?? null;
  const varied = Object.entries(experiment.matrix)
    .filter(([axis, values]) => axis !== 'workload' && values.length > 1)
    .map(([axis]) => axis);
  return {
    requests: [...requests.values()],
    production,
    by_hand: production ? varied.filter((axis) => !(axis in production)) : [],
  };
}

// The folders the figures came from, in the order they were preferred, with how many cells each gave and how; the
// shipped ones say so and name the host they were measured on.
function listSources(perCell, sources) {
  const shipped = sources.find((source) => source.shipped);
  const used = new Map();
  for (const { from, source } of perCell.values()) {
    if (!source) continue;
    if (!used.has(source)) used.set(source, { folder: source, measured_cells: 0, model_cells: 0 });
    used.get(source)[from === 'measured' ? 'measured_cells' : 'model_cells'] += 1;
  }
  const rank = (folder) => {
    const index = sources.findIndex((source) => source.dir === folder);
    return index < 0 ? sources.length : index;
  };
  return [...used.values()]
    .sort((a, b) => rank(a.folder) - rank(b.folder))
    .map((entry) => {
      const host = rank(entry.folder) === sources.length ? shipped?.folders?.[entry.folder]?.host : undefined;
      return { ...entry, shipped: Boolean(host), host: host ?? null };
    });
}

function describeUnknownRace(plan, sources) {
  const shipped = sources.find((source) => source.shipped);
  const http = plan.cells.length > 0 && plan.cells.every((cell) => cell.workload === 'http');
  if (plan.experiment.search !== 'race' || !http || !shipped || shipped.http_races) return null;
  return 'no race of HTTP work is shipped (npm run run-times reads them from docs/settling/), and a race of pbkdf2 says nothing of how far an HTTP one goes: between the planned runs and the cap';
}

// A race runs its start rounds and then only what is still open: how far it goes is not known before it runs. The
// shipped figures say how far the races of their folders went, as a share of the runs left to the cap
// (scripts/lib/run-time-figures.js); a race is expected to go about as far.
function expectRace(plan, { pending, most, estimate, sources }) {
  const shipped = sources.find((source) => source.shipped);
  const http = plan.cells.length > 0 && plan.cells.every((cell) => cell.workload === 'http');
  const races = http ? shipped?.http_races : shipped?.races;
  if (plan.experiment.search !== 'race' || !races || most.total === 0) return null;
  return {
    runs: pending.length + Math.round(races.extra_share * most.total),
    ms: estimate.planned_ms === null ? null : estimate.planned_ms + races.extra_share * estimate.extra_ms,
    from: races.folders,
  };
}

function roundOrNull(ms) {
  return ms === null ? null : Math.round(ms);
}
