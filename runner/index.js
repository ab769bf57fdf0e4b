// The API (package.json `exports` "."): everything the command line does, from code. The command line (cli.js,
// commands/) calls only this. Each function loads its modules when called, so importing the package costs little,
// and plan(), report(), judge(), compare() and init() given `cpus` never load Docker code. Reference: docs/api.md.

export { LabError } from './errors.js';
export { run } from './api/run.js';

/**
 * The runs a matrix would make, checked as a run checks them, without starting anything.
 * @param {string|object} [configOrFile]  experiments.yml's path (default: experiments.yml), or its content as an object
 * @param {{ only?: string[], seed?: number, resume?: string, engines?: string[], slots?: number,
 *   resultsRoot?: string }} [options]  resultsRoot: where earlier results folders are, for the estimate (default:
 *   ./results)
 * @returns {Promise<object>}  { config_file, seed, resumed_from, count, experiments: [{ name, cells, runs }],
 *   warnings } (docs/cli.md: plan --json)
 */
export async function plan(configOrFile, { resultsRoot, ...options } = {}) {
  const { describePlan, preparePlan } = await import('./api/plan.js');
  return describePlan(await preparePlan(configOrFile, options), resultsRoot ? { resultsRoot } : {});
}

/** Rewrites the reports of a results folder; resolves to { dir, files, results } (results: what results.json holds). */
export async function report(dir, options) {
  return (await import('./api/folders.js')).report(dir, options);
}

/** The verdicts of a results folder: its claims (run.json's, those given, or an experiments file's) and every step. */
export async function judge(dir, claims, options) {
  return (await import('./api/folders.js')).judge(dir, claims, options);
}

/**
 * What to set, per CPU budget: the recommended setting, what it beats, the Node default against it, settled or open.
 */
export async function advise(dir, options) {
  return (await import('./api/folders.js')).advise(dir, options);
}

/** The capacity model against the measured medians of a results folder, per workload and cell. */
export async function model(dir, options) {
  return (await import('./api/folders.js')).model(dir, options);
}

/** Two results folders, cell by cell: ratio B / A with its 95% interval; with a threshold, a gate. */
export async function compare(dirA, dirB, options) {
  return (await import('./api/folders.js')).compare(dirA, dirB, options);
}

/** Writes a first experiments.yml for a function (script), an HTTP app (httpApp) or a command; never overwrites. */
export async function init(options) {
  return (await import('./api/init.js')).init(options);
}

/** Builds, or confirms up to date, the workload image of each Node major on the engine. */
export async function buildImages(options) {
  return (await import('./api/images.js')).buildImages(options);
}
