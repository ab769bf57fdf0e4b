// What the API does with results folders that exist already: rebuild their reports, judge them (again, or
// against claims written after the run), compare two. Each reads only the folder (runs.csv, tasks.csv,
// run.json) and returns plain data; nothing here prints.
import { resolve } from 'node:path';
import { LabError } from '../errors.js';
import { loadConfig } from '../config/load-config.js';
import { checkClaims, normalizeClaim } from '../config/check-claims.js';
import { formatPath } from '../config/diagnostics/paths.js';
import { isPlainObject } from '../config/values.js';
import { readResults } from '../results/read-results.js';
import { writeReports } from '../report/write-reports.js';
import { judgeResults } from '../report/verdicts.js';
import { buildVerdictsDocument } from '../report/results-json.js';
import { compareFolders } from '../report/compare.js';
import { DEFAULT_COMPARISON, METHODS } from '../stats/compare-samples.js';
import { buildAdvice } from '../report/advice.js';
import { buildCapacity } from '../report/capacity.js';
import { summarizeCells } from '../report/summary.js';
import { buildModelTables, formatModelTable } from '../report/model-table.js';
import { normalizeRecommend } from '../config/check-recommend.js';

/**
 * (Re)writes summary.csv, verdicts.csv, pivot-*.csv, results.json, report.md and report.html in `dir`.
 * @param {string} dir
 * @param {{ baseline?: object, pivots?: object[], keepDisturbed?: boolean, config?: string }} [options]  baseline,
 *   pivots: instead of run.json's report settings; config: judge the claims of this experiments file's experiment of
 *   the folder's name instead of run.json's (claims written or re-read after the run)
 * @returns {Promise<{ dir: string, files: string[], results: object }>}  results: what results.json holds
 */
export async function report(dir, { config, ...options } = {}) {
  const absolute = resolve(dir);
  let claims;
  if (config !== undefined) {
    const results = readResults(absolute);
    const experiment = results.info?.experiment ?? results.runs[0]?.experiment;
    claims = checkClaimCellsOf(results, (await chooseClaims(config, results, experiment)).list);
  }
  const { files, results } = writeReports(absolute, { ...options, claims });
  return { dir: absolute, files, results };
}

// An experiments file's claims against a folder: a value the folder has no cell for is an error (exit 2), as in claims.
function checkClaimCellsOf(results, claims) {
  judgeResults(results, { claims, requireCells: true });
  return claims;
}

/**
 * The verdicts of a folder: its experiment's claims and every step along every axis.
 * @param {string} dir
 * @param {object[]|string} [claims]  claims as experiments.yml writes them, or an experiments file whose experiment
 *   of the folder's name has them (claims written after the run); default: those recorded in run.json
 * @returns {Promise<{ dir: string, experiment: string, claims_from: string, exit_code: 0|1|3,
 *   claims_verdict: string|null, claims: object[], steps: object[], leaders: object[] }>}  claims and steps: rows
 *   of verdicts.csv
 */
export async function judge(dir, claims, { keepDisturbed } = {}) {
  const absolute = resolve(dir);
  const results = readResults(absolute, { keepDisturbed });
  const experiment = results.info?.experiment ?? results.runs[0]?.experiment;
  const { list, from } = await chooseClaims(claims, results, experiment);
  return {
    dir: absolute,
    experiment,
    claims_from: from,
    ...buildVerdictsDocument(judgeResults(results, { claims: list, requireCells: true })),
  };
}

async function chooseClaims(claims, results, experiment) {
  if (Array.isArray(claims)) return { list: checkGivenClaims(claims, results.info?.config ?? {}), from: 'given' };
  if (claims === undefined) return { list: results.info?.config?.claims ?? [], from: 'run.json' };
  const file = resolve(claims);
  const config = await loadConfig(file);
  const found = config.experiments.find((each) => each.name === experiment);
  if (!found) {
    throw new LabError(
      'ERR_USAGE',
      `${file} has no experiment named ${JSON.stringify(experiment)} (the folder's experiment)`,
      {
        hint: `experiments there: ${config.experiments.map((each) => each.name).join(', ')}`,
      },
    );
  }
  return { list: found.claims ?? [], from: file };
}

// Claims written as in experiments.yml, checked against the folder's matrix as the config stage checks a file's.
function checkGivenClaims(claims, experiment) {
  const example = '{ says: "…", compare: { cpus: [1, 2] }, where: { … }, expect: { below: 0.7 } }';
  const malformed = claims.findIndex(
    (claim) =>
      !isPlainObject(claim) ||
      typeof claim.says !== 'string' ||
      !isPlainObject(claim.compare) ||
      !isPlainObject(claim.expect),
  );
  if (malformed >= 0)
    throw new LabError('ERR_USAGE', `claims[${malformed}]: expected an object with says, compare and expect`, {
      hint: `as experiments.yml writes a claim: ${example}`,
    });
  const [issue] = checkClaims({ matrix: experiment.matrix ?? {}, include: experiment.include, claims }, []);
  if (issue) throw new LabError('ERR_USAGE', `${formatPath(issue.path)}: ${issue.message}`, { hint: issue.hint });
  return claims.map(normalizeClaim);
}

/**
 * Per cell in both folders and per primary metric: both medians and the ratio B / A with its 95% interval.
 * @param {string} dirA  the reference (before)
 * @param {string} dirB  the one judged (after)
 * @param {{ threshold?: number, matchOn?: string, out?: string, allowDifferentHosts?: boolean }} [options]  threshold:
 *   the "same" band and the gate (0.05 = 5%); matchOn: pair cells that differ only in this axis; out: also write the
 *   rows as this CSV file; allowDifferentHosts: gate folders measured on different hosts (else a LabError, exit 2)
 * @returns {{ a: string, b: string, hosts: object, method: object, threshold: number, match_on: string|null,
 *   gate: 'passed'|'failed'|'incomplete'|null, axes: string[], columns: string[], rows: object[], regressions:
 *   object[], unjudged: object[], only_a: object[], only_b: object[], file: string|null }}
 *   gate: null unless a threshold was given; 'incomplete': no regression, but some rows cannot be judged (`unjudged`:
 *   fewer than 2 runs that count on a side), which never passes; hosts: { same, differences: [{ fact, label, a, b }],
 *   a, b }
 */
export function compare(dirA, dirB, { threshold, matchOn, out, keepDisturbed, allowDifferentHosts } = {}) {
  const { comparison, hosts, text, gate, files } = compareFolders({
    dirA,
    dirB,
    threshold,
    matchOn,
    out,
    keepDisturbed,
    allowDifferentHosts,
  });
  return {
    a: resolve(dirA),
    b: resolve(dirB),
    hosts,
    method: { name: DEFAULT_COMPARISON.method, paired: false, estimates: METHODS[DEFAULT_COMPARISON.method].estimates },
    threshold: comparison.threshold,
    match_on: matchOn ?? null,
    gate,
    axes: comparison.axes,
    columns: comparison.columns,
    rows: comparison.rows,
    regressions: comparison.regressions,
    unjudged: comparison.unjudged,
    only_a: comparison.onlyA,
    only_b: comparison.onlyB,
    file: files[0] ?? null,
    text,
  };
}

/**
 * What to set, per CPU budget, from a results folder: its experiment's `recommend:` (run.json's), or the one given
 * (as experiments.yml writes it), or the defaults (the primary metric, per cpus/cpuset/node/engine, within 5%).
 * @param {string} dir
 * @param {{ recommend?: object }} [options]
 * @returns {{ dir: string, experiment: string, settled: boolean, answers: object[], tables: object[],
 *   race: object|null }}  answers: advice.csv's rows; tables: per budget { budget, workload, metric, status, header,
 *   rows, words }, each setting (cheapest first) with its runs, median, bound and state; race: with `search: race`,
 *   the settings that stopped early, when and why
 */
export function advise(dir, { recommend, keepDisturbed } = {}) {
  const absolute = resolve(dir);
  const results = readResults(absolute, { keepDisturbed });
  if (recommend !== undefined && results.info?.config)
    results.info.config = { ...results.info.config, recommend: normalizeRecommend(recommend) };
  const capacity = buildCapacity(results);
  // A capacity search's runs are at many rates: its answer is the capacity, not advice at one rate.
  const advice = capacity
    ? { answers: [], rows: [], tables: [], race: null }
    : buildAdvice(results, summarizeCells(results));
  const experiment = results.info?.experiment ?? results.runs[0]?.experiment;
  const answered = [...advice.rows, ...(capacity?.answers ?? [])];
  return {
    dir: absolute,
    experiment,
    settled: answered.length > 0 && answered.every((row) => row.status === 'settled'),
    answers: advice.rows,
    tables: advice.tables,
    race: advice.race,
    // With `slo:`: the capacity search's answer per budget (capacity.csv's rows; null without).
    capacity: capacity && {
      slo: capacity.slo,
      rows: capacity.rows,
      words: capacity.answers.map((answer) => answer.words),
    },
  };
}

/**
 * The capacity model beside the measurements of a results folder: per workload its calibration and, per cell, the
 * model's value against the measured median (the "Model vs measured" table of report.md).
 * @param {string} dir
 * @param {{ keepDisturbed?: boolean }} [options]  keepDisturbed: count disturbed runs too (default: as the matrix was
 *   told)
 * @returns {{ dir: string, experiment: string, tables: { workload: string, calibrations: string[], header: string[],
 *   rows: string[][] }[] }}  tables: none when the folder has no model (no measured run, no run.json parameters, or a
 *   workload without one)
 */
export function model(dir, { keepDisturbed } = {}) {
  const absolute = resolve(dir);
  const results = readResults(absolute, { keepDisturbed });
  const summary = summarizeCells(results);
  const workloads = [...new Set(summary.cells.map((cell) => cell.workload))];
  const tables = buildModelTables({ summary, axes: results.axes, workloads }).map((table) => {
    const { header, body } = formatModelTable(table);
    return { workload: table.workload, calibrations: table.calibrations, header, rows: body };
  });
  return { dir: absolute, experiment: results.info?.experiment ?? results.runs[0]?.experiment ?? '', tables };
}
