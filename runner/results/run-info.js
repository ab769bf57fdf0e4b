// run.json: everything needed to know later what a results folder measured and how.
import os from 'node:os';
import { execFile } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { promisify } from 'node:util';

// Node's own execFile, not execa: this runs before the first container, and both calls go at once. The ceiling
// keeps git from walking up out of an installed copy (node_modules/node-threads-lab) into the project around it.
const git = (args, cwd) =>
  promisify(execFile)('git', args, {
    cwd,
    env: { ...process.env, GIT_CEILING_DIRECTORIES: dirname(resolve(cwd)) },
  }).then(
    ({ stdout }) => stdout,
    () => null,
  );

export async function readProject(cwd) {
  const [revision, status] = await Promise.all([git(['rev-parse', 'HEAD'], cwd), git(['status', '--porcelain'], cwd)]);
  return {
    git_revision: revision === null ? null : revision.trim(),
    git_dirty: revision === null || status === null ? null : status.trim() !== '',
  };
}

/**
 * The version of the results folder's format (run.json, runs.csv, tasks.csv) this version writes and reads. Raise it
 * when an older reader would misread a new folder (a column's meaning changed, a key it needs moved); a reader meets
 * a higher one with exit 2 and "written by a newer node-threads-lab" (read-run-info.js), never a wrong answer. A
 * folder without it (written before it existed) is format 1.
 */
export const RESULTS_FORMAT_VERSION = 1;

/**
 * engines, slots (docker/engine-set.js): every engine with its facts, read from the engine itself, and --slots; on
 * Kubernetes every node of the pool.
 */
export function buildRunInfo({
  plan,
  config,
  engine,
  engines,
  slots,
  images,
  project,
  argv,
  seed,
  startedAt,
  kubernetes,
}) {
  return {
    tool: 'node-threads-lab',
    format_version: RESULTS_FORMAT_VERSION,
    experiment: plan.experiment.name,
    config_file: config.file,
    config: plan.experiment,
    argv,
    seed,
    // The shuffled order of the planned runs, as run keys (cell.repetition): enough to repeat it.
    order: plan.runs.map((run) => run.runKey),
    planned_runs: plan.runs.length,
    // --keep-disturbed: disturbed runs counted in the statistics and not re-run; `npm run report` keeps to it.
    ...(plan.keepDisturbed ? { keep_disturbed: true } : {}),
    cells: plan.cells.map(({ cell, values, params, env, limits, nodeMajor }) => ({
      cell,
      values,
      params,
      env,
      limits,
      node_major: nodeMajor,
    })),
    host: {
      cpus: os.cpus().length,
      available_parallelism: os.availableParallelism?.() ?? null,
      cpu_model: os.cpus()[0]?.model ?? null,
      total_memory_bytes: os.totalmem(),
      kernel: os.release(),
      hostname: os.hostname(),
    },
    docker: { engine: engine.host, version: engine.version },
    ...(engines ? { engines, slots } : {}),
    // On Kubernetes (kubernetes/session.js): the context, namespace, node pool, API server and lanes; `engines` are
    // then the pool's nodes.
    ...(kubernetes ? { kubernetes } : {}),
    images: Object.fromEntries([...images].map(([major, image]) => [major, image])),
    project,
    started_at: startedAt.toISOString(),
    finished_at: null,
    summary: null,
  };
}
