// The first half of every matrix and the whole of `plan`: an experiments file (or the same as an object) →
// checked, resumed and expanded into runs. Loads no Docker code: `plan` and a config error must work
// without an engine (test/unit/run/run-experiments.test.js runs them under an import hook that forbids it).
import path from 'node:path';
import { loadConfig, validateConfig } from '../config/load-config.js';
import { readHost } from '../config/host.js';
import { DEFAULT_NODE_MAJOR } from '../domain/axes.js';
import { planColumns } from '../domain/columns.js';
import { checkUserCode } from '../user-code/check-user-code.js';
import { readBenchFigures } from '../estimate/estimate.js';
import { outlinePlan } from '../plan/outline.js';
import { planExperiments } from '../plan/plan-runs.js';
import { findPlanWarnings } from '../plan/plan-warnings.js';
import { newSeed } from '../plan/run-order.js';
import { countMostReruns } from '../rounds/reruns.js';
import { LabError } from '../errors.js';
import { readPreviousRunTimes } from './previous-runs.js';

export const DEFAULT_CONFIG_FILE = 'experiments.yml';

/**
 * @param {string|object} [configOrFile]  a path (relative to the working directory), or the file's content as an
 *   object ({ experiments: {...} }; paths in it relative to the working directory); default: experiments.yml,
 *   or on resume the file recorded in run.json
 * @param {object} [options]
 * @param {string[]} [options.only]     experiment names
 * @param {number} [options.seed]       of the shuffled order (default: random; a resume keeps its own)
 * @param {string} [options.resume]     a results folder: plan only the runs its runs.csv lacks
 * @param {string[]} [options.engines]  Docker context names or URLs: the CPU checks wait for those engines' facts
 * @param {number} [options.slots]
 * @param {boolean} [options.keepDisturbed]  count disturbed runs in the statistics and re-run none (a resume keeps its
 *   folder's choice)
 * @param {string} [options.kubernetes]  CONTEXT[/NAMESPACE]: run on that cluster (over the file's `kubernetes:` block;
 *   a resume keeps the one its folder ran on)
 * @returns {Promise<{ config: object, plans: object[], resumed: object|null, seed: number, engines: string[],
 *   slots: number, warnings: object[], pending: object[] }>}  pending: the runs still to do, in order (RunSpec,
 *   plan/plan-runs.js)
 */
export async function preparePlan(
  configOrFile,
  { only = [], seed, resume, engines = [], slots, keepDisturbed = false, kubernetes } = {},
) {
  const resumed = resume ? await readResumed(resume, { keepDisturbed }) : null;
  const { engineNames, slotCount } = chooseEngines(resumed, { engines, slots });
  // Engines named here are other machines: their CPUs are checked once they are reached.
  const cluster = chooseKubernetes(kubernetes, resumed, engines);
  const elsewhere = engineNames.length > 0 || slotCount > 1 || cluster !== undefined;
  const config = await readConfig(
    configOrFile ?? resumed?.info.config_file ?? DEFAULT_CONFIG_FILE,
    elsewhere ? { host: null } : {},
  );
  if (cluster) setKubernetes(config, cluster);
  const runSeed = resumed?.info.seed ?? seed ?? newSeed();
  const plans = planExperiments(config, {
    only: resumed ? [resumed.info.experiment] : only,
    defaultNodeMajor: DEFAULT_NODE_MAJOR,
    seed: runSeed,
    keepDisturbed: keepDisturbed || resumed?.info.keep_disturbed === true,
  });
  if (resumed) await fitResumed(plans, resumed);
  // The preflight's static half: a misspelled export is exit 2 here, before any engine is reached.
  const userCode = await checkUserCode(plans, config);
  return {
    config,
    plans,
    resumed,
    seed: runSeed,
    engines: engineNames,
    slots: slotCount,
    warnings: [...plans.flatMap((plan) => findPlanWarnings(plan, config)), ...userCode.warnings],
    userModules: userCode.modules,
    pending: plans.flatMap((plan) => plan.runs.filter((run) => !resumed?.done.has(run.runKey))),
  };
}

/**
 * --kubernetes CONTEXT[/NAMESPACE], else what a resumed folder ran on (its run.json's `kubernetes`); undefined: the
 * file decides (its `kubernetes:` block, or Docker).
 */
function chooseKubernetes(flag, resumed, engines) {
  if (flag !== undefined) {
    const [context, namespace] = flag.split('/');
    if (!context || engines.length > 0 || flag.split('/').length > 2) {
      throw new LabError('ERR_USAGE', `--kubernetes ${flag}: expected CONTEXT or CONTEXT/NAMESPACE, without --engine`, {
        hint: 'a kubeconfig context (`kubectl config get-contexts`), e.g. --kubernetes kube-lab/node-threads-lab',
      });
    }
    return { context, ...(namespace ? { namespace } : {}) };
  }
  const recorded = resumed?.info.kubernetes;
  if (!recorded) return undefined;
  const { context, namespace, node_pool: pool, kubeconfig } = recorded;
  return {
    context,
    namespace,
    ...(Object.keys(pool ?? {}).length > 0 ? { node_pool: pool } : {}),
    ...(kubeconfig ? { kubeconfig } : {}),
  };
}

// The cluster named on the command line (or by the resumed folder) over the file's `kubernetes:` block, key by key.
function setKubernetes(config, cluster) {
  if (config.engines) {
    throw new LabError(
      'ERR_USAGE',
      `${config.file ?? 'the config'} names Docker engines (\`engines:\`); --kubernetes names a cluster`,
      {
        hint: 'keep one: drop --kubernetes, or run a file without `engines:`',
      },
    );
  }
  config.kubernetes = { ...config.kubernetes, ...cluster };
}

// The folder being resumed (results/resume.js, loaded only then: only a resume reads CSVs back).
async function readResumed(resume, { keepDisturbed }) {
  const { readResumeState } = await import('../results/resume.js');
  const resumed = readResumeState(path.resolve(resume));
  if (keepDisturbed && resumed.info.keep_disturbed !== true) {
    throw new LabError(
      'ERR_USAGE',
      `--keep-disturbed: ${resumed.dir} was started without it, and a resume keeps the choice its folder was started with`,
      {
        hint: `drop --keep-disturbed; to count the disturbed runs afterwards: node-threads-lab report ${resumed.dir} --keep-disturbed`,
      },
    );
  }
  return resumed;
}

// Each plan fits the resumed folder's columns; its user_<key> columns are those of the folder's header (the preflight
// does not change them).
async function fitResumed(plans, resumed) {
  const { checkResumable } = await import('../results/resume.js');
  for (const plan of plans) {
    plan.userColumns = (resumed.header ?? []).filter((column) => column.startsWith('user_'));
    checkResumable(plan, resumed, planColumns(plan));
  }
}

// A resume goes back to the engines and slots it started with, unless told otherwise.
function chooseEngines(resumed, { engines, slots }) {
  return {
    // A folder measured on Kubernetes recorded the pool's nodes there, which are no Docker engines.
    engineNames:
      engines.length > 0 || resumed?.info.kubernetes
        ? engines
        : (resumed?.info.engines?.map((engine) => engine.name) ?? []),
    slotCount: slots ?? resumed?.info.slots ?? 1,
  };
}

function readConfig(configOrFile, options) {
  if (typeof configOrFile === 'string') return loadConfig(path.resolve(configOrFile), options);
  // The same checks as a file's, with key paths for places (an object has no lines).
  return validateConfig(configOrFile, { ...options, configDir: process.cwd() });
}

/**
 * What `plan --json` prints and `plan()` resolves to: plain data, the run keys and cells as run.json names them, and
 * each experiment's outline (plan/outline.js: the cell table, the most adaptive rounds may add, the estimate, the
 * claims' metrics). The estimate reads the benchmark's figures, the earlier folders under `resultsRoot` (the folder
 * being resumed first, on --resume) and the run times shipped with the package (api/previous-runs.js).
 */
export async function describePlan(
  { config, plans, seed, warnings, pending, resumed, engines = [], slots = 1, userModules = [] },
  { resultsRoot = path.resolve('results') } = {},
) {
  const pendingKeys = new Set(pending.map((run) => `${run.experiment}\u0000${run.runKey}`));
  const bench = readBenchFigures();
  const lanes = config.kubernetes
    ? (config.kubernetes.lanes ?? 1)
    : Math.max(1, engines.length || config.engines?.length || 1) * slots;
  // Engines elsewhere (a cluster's nodes too) have CPUs of their own: a cell without a quota or cpuset is not modelled
  // then. With slots, a cell without a cpuset runs in its slot's share of the CPUs.
  const hostCpus =
    engines.length > 0 || config.engines?.length > 0 || config.kubernetes
      ? null
      : Math.max(1, Math.floor(readHost().cpus / slots));
  const experiments = await Promise.all(
    plans.map(async (plan) => {
      const { experiment, cells, runs } = plan;
      const todo = runs.filter((run) => pendingKeys.has(`${run.experiment}\u0000${run.runKey}`));
      const sources = await readPreviousRunTimes(experiment.name, { resultsRoot, resumed });
      return {
        name: experiment.name,
        cells: cells.map(({ cell, values, workload, params, env, limits, nodeMajor }) => ({
          cell,
          values,
          workload,
          params,
          env,
          limits,
          node_major: nodeMajor,
        })),
        runs: todo.map(({ runKey, cell, repetition, warmup, values }) => ({
          run_key: runKey,
          cell,
          repetition,
          warmup,
          values,
        })),
        ...outlinePlan(plan, { pending: todo, bench, sources, hostCpus, lanes }),
      };
    }),
  );
  const estimates = experiments.map((experiment) => experiment.estimate);
  const sum = (key) =>
    estimates.some((estimate) => estimate[key] === null)
      ? null
      : estimates.reduce((total, estimate) => total + estimate[key], 0);
  return {
    config_file: config.file ?? null,
    seed,
    resumed_from: resumed?.dir ?? null,
    count: pending.length,
    // Re-runs of disturbed runs come on top of the plan: at most this many (a resumed folder may have used some).
    most_reruns: plans.reduce((sum, plan) => sum + countMostReruns(plan), 0),
    // The most waiting for a quiet host, over every experiment (each its own `busy_wait`).
    most_busy_wait_ms: plans.reduce((sum, plan) => sum + (plan.experiment.busy_wait ?? 0) * 1000, 0),
    experiments,
    up_to_more: experiments.reduce((total, experiment) => total + experiment.up_to_more, 0),
    estimate: {
      planned_ms: sum('planned_ms'),
      up_to_more_ms: sum('up_to_more_ms'),
      // Every experiment's likely figure, a grid's being its planned one; null when none is a race.
      ...sumLikely(experiments),
      lower_bound: estimates.some((estimate) => estimate.lower_bound),
    },
    user_code: userModules,
    // Where the runs go when not on Docker: the cluster, and how many runs at once at most (the pool's nodes and the
    // namespace's ResourceQuotas may allow fewer, read when the run starts).
    kubernetes: config.kubernetes ? describeCluster(config.kubernetes) : null,
    warnings,
  };
}

function describeCluster({ context = null, namespace = null, node_pool: pool = {}, lanes = 1 }) {
  return {
    context,
    namespace,
    node_pool: pool,
    lanes_up_to: lanes,
    lanes_why: `kubernetes.lanes is ${lanes}; at start, fewer if the node pool's allocatable CPUs or the namespace's ResourceQuotas hold fewer of the largest cell`,
  };
}

// The experiments' likely runs and time: a race's own figure, a grid's planned one (null where a time is unknown).
function sumLikely(experiments) {
  const from = [...new Set(experiments.flatMap(({ estimate }) => estimate.likely_from ?? []))];
  if (from.length === 0) return { likely_runs: null, likely_ms: null, likely_from: [] };
  let runs = 0;
  let ms = 0;
  for (const { estimate, planned } of experiments) {
    runs += estimate.likely_runs ?? planned;
    ms = ms === null || estimate.planned_ms === null ? null : ms + (estimate.likely_ms ?? estimate.planned_ms);
  }
  return { likely_runs: runs, likely_ms: ms, likely_from: from };
}
