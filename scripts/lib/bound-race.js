// One simulated invocation of a race for the bound study of `npm run bench:stats`, made by the runner's own code: a
// case's budgets become an experiment (runner/config/validate.js, runner/plan/plan-runs.js), the scheduler decides
// every round (runner/rounds/schedule.js: the planned rounds, then what the race's answers still ask for,
// runner/rounds/race.js and runner/verdicts/choose-setting.js, with the candidate rule in place of the chosen one),
// each run's value comes from the case's truth and a fitted noise profile, and the answers are read at the end as the
// report reads them. Nothing here decides; it only draws the values and counts.
import { validateConfig } from '../../runner/config/validate.js';
import { DEFAULT_NODE_MAJOR } from '../../runner/domain/axes.js';
import { planExperiments } from '../../runner/plan/plan-runs.js';
import { answerRace } from '../../runner/rounds/race.js';
import { planNextRound } from '../../runner/rounds/schedule.js';
import { createRandom } from '../../runner/stats/random.js';

/** The default file's cap (`adaptive.max_repetitions`) and margin (`recommend: {within: 5%}`). */
export const CAP = 8;
export const WITHIN = 0.05;

/**
 * A case as an experiment: every combination of its workloads, CPU quotas and pools, raced with the rule's start
 * rounds and the cap; claims off (the study judges the advice).
 * @param {{ name: string, budgets: { workload: string, cpus: number, settings: { pool: number }[] }[] }} testCase
 */
export function planCase(testCase, { rule, cap = CAP, within = WITHIN, seed }) {
  const key = `${testCase.name} ${rule.n0} ${cap} ${within}`;
  if (!CONFIGS.has(key)) CONFIGS.set(key, configureCase(testCase, { rule, cap, within }));
  const [plan] = planExperiments(CONFIGS.get(key), { defaultNodeMajor: DEFAULT_NODE_MAJOR, seed });
  return { ...plan, boundRule: rule };
}

// The checked config of each case, made once: only the order of the runs changes from trial to trial.
const CONFIGS = new Map();

function configureCase(testCase, { rule, cap, within }) {
  const unique = (values) => [...new Set(values)].sort((u, v) => (u < v ? -1 : u > v ? 1 : 0));
  const raw = {
    experiments: {
      study: {
        repetitions: rule.n0,
        search: 'race',
        adaptive: { max_repetitions: cap },
        recommend: { within: `${100 * within}%` },
        matrix: {
          workload: unique(testCase.budgets.map(({ workload }) => workload)),
          cpus: unique(testCase.budgets.map(({ cpus }) => cpus)),
          uv_threadpool_size: unique(testCase.budgets.flatMap(({ settings }) => settings.map(({ pool }) => pool))),
        },
      },
    },
  };
  return validateConfig(raw, { file: 'bound-study.yml', host: null, configDir: process.cwd() });
}

/** The true log gap of a cell of the case. */
export function gapOf(testCase, values) {
  return settingOf(testCase, values).gap;
}

/** The case's setting of a cell: its budget's with the cell's pool. */
function settingOf(testCase, values) {
  const budget = testCase.budgets.find(
    ({ workload, cpus }) => workload === values.workload && String(cpus) === String(values.cpus),
  );
  return budget.settings.find(({ pool }) => String(pool) === String(values.uv_threadpool_size));
}

/**
 * One trial's noise, the same for every rule at the same cell, round and place in the round (common random numbers):
 * a shift per round (AR(1)), each run's own noise resampled from the profile's residuals and scaled for the cell
 * (cheapScale: the cheapest setting of a budget noisier than the rest), and a share of it passed on to the next run
 * of the round (the fitted correlation of adjacent runs, as an MA(1) of the runs in their order).
 */
export function createTrialNoise(profile, seed) {
  const shifts = [];
  const shiftRandom = createRandom(seed);
  const innovation = Math.sqrt(1 - profile.phi * profile.phi);
  const theta = movingAverageOf(profile.adjacent ?? 0);
  const norm = Math.sqrt(1 + theta * theta);
  const own = (cell, round) => {
    const random = createRandom(hash(seed, cell, round));
    return profile.residuals[Math.floor(random() * profile.residuals.length)];
  };
  return {
    shift(round) {
      while (shifts.length < round) {
        const fresh = profile.roundSd * normal(shiftRandom);
        shifts.push(shifts.length === 0 ? fresh : profile.phi * shifts.at(-1) + innovation * fresh);
      }
      return shifts[round - 1];
    },
    /** The own noise of `cell` run in `round` after `previous` (null for the round's first run). */
    run(cell, round, previous) {
      const mine = own(cell, round);
      return previous === null ? mine : (mine + theta * own(previous, round)) / norm;
    },
  };
}

/**
 * Races one trial of a case under a rule and reads the answers.
 * @returns {Promise<{ runs: number, budgets: { name: string, runs: number, recommended: number|null, U: number,
 *   settled: boolean }[] }>}  per budget: its runs, the recommended pool, its bound on the log scale (Infinity when
 *   there is none) and whether the answer is settled
 */
export async function playTrial(testCase, rule, profile, { trial, seed, cap = CAP, within = WITHIN }) {
  const plan = planCase(testCase, { rule, cap, within, seed: trial });
  const noise = createTrialNoise(profile, hash(seed, 'noise', trial));
  const cellIndex = new Map(plan.cells.map(({ cell }, i) => [cell, i]));
  const rows = [];
  for (let round = await planNextRound(plan, rows); round !== null; round = await planNextRound(plan, rows)) {
    const previous = new Map();
    for (const run of round.runs) {
      const index = cellIndex.get(run.cell);
      const before = previous.get(run.repetition) ?? null;
      previous.set(run.repetition, index);
      const scale = scaleOf(testCase, profile, run.values);
      const log =
        gapOf(testCase, run.values) + noise.shift(run.repetition) + scale * noise.run(index, run.repetition, before);
      rows.push({
        experiment: run.experiment,
        cell: run.cell,
        repetition: run.repetition,
        warmup: false,
        status: 'ok',
        disturbed: false,
        workload: run.values.workload,
        cpus: run.values.cpus,
        uv_threadpool_size: run.values.uv_threadpool_size,
        wall_ms: 1000 * Math.exp(log),
        // The memory the advice's cost order reads: the setting's, every run alike.
        peak_rss_mb: settingOf(testCase, run.values).memory ?? null,
      });
    }
  }
  const answers = answerRace(plan, rows);
  return {
    runs: rows.length,
    budgets: testCase.budgets.map(({ name, workload, cpus }) => {
      const answer = answers.find((each) => each.workload === workload && each.budget === `cpus=${cpus}`);
      const recommended = answer?.recommended?.cell.values.uv_threadpool_size ?? null;
      return {
        name,
        runs: rows.filter((row) => row.workload === workload && String(row.cpus) === String(cpus)).length,
        recommended: recommended === null ? null : Number(recommended),
        U:
          answer?.bound_pct === null || answer?.bound_pct === undefined ? Infinity : Math.log1p(answer.bound_pct / 100),
        settled: answer?.status === 'settled',
      };
    }),
  };
}

// The cheapest setting of a budget is the noisy one in the adversarial profiles; the rest keep the other factor.
function scaleOf(testCase, profile, values) {
  if (!profile.cheapScale) return 1;
  const budget = testCase.budgets.find(
    ({ workload, cpus }) => workload === values.workload && String(cpus) === String(values.cpus),
  );
  const cheapest = Math.min(...budget.settings.map(({ pool }) => pool));
  return profile.cheapScale[Number(values.uv_threadpool_size) === cheapest ? 0 : 1];
}

/** θ of an MA(1) whose lag-1 correlation is ρ: ρ = θ / (1 + θ²). */
function movingAverageOf(rho) {
  if (!(rho > 0)) return 0;
  const r = Math.min(rho, 0.49);
  return (1 - Math.sqrt(1 - 4 * r * r)) / (2 * r);
}

/** A 32-bit seed from a few parts (FNV-1a over their text). */
export function hash(...parts) {
  let h = 0x811c9dc5;
  for (const char of parts.join('\u0000')) {
    h ^= char.charCodeAt(0);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Box–Muller: one standard normal from two uniforms. */
function normal(random) {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}
