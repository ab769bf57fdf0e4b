// Every workload, by the name experiments.yml and LAB_SPEC.workload use: the one registry that the image
// (spec.js, run.js, loader.js) and the runner (config schema and checks, CSV columns, reports, executor)
// both read. The runner imports this folder; nothing here imports the runner, and nothing here imports a
// package at module load (a workload loads its own, e.g. argon2, in prepare()).
//
// Adding a workload = one module beside these + one line in WORKLOADS below; then
// `node scripts/write-schema.js` republishes experiments.schema.json, and
// test/unit/images/workloads/contract.test.js checks the module against the image and the runner.
//
// A workload module exports:
//   description               one or two sentences: the schema's description of params.<name>
//   params                    JSON Schema properties of params.<name>: type, minimum/maximum, enum, default,
//                             title, description, examples. `default` is THE default (runner and image);
//                             an object parameter has `properties` and its own `default` object. `tasks`
//                             is how many tasks a CPU workload runs.
//   checkParams(params, host) optional; what the schema cannot say, for values with the defaults filled in:
//                             returns [{ path (relative to params.<name>), message, hint }]. `host`
//                             ({ cpus, cpuIds }) is given by the runner only.
//   columns                   optional; runs.csv columns the result line's `metrics` carries, in order:
//                             [{ name, unit, description, type? ('text' | 'boolean'; default number) }]
//   primaryMetrics            optional; [{ column, better: 'lower' | 'higher', label }], the first one is
//                             what speedup and adaptive repetitions use; default wall_ms (lower is better)
//   latencyPercentiles        optional; [[label, column]] drawn as report.html's latency percentile chart
//   describeTask(params)      optional; what one task does, exactly, in words ("argon2.hash …, then
//                             argon2.verify of that hash …"): docs/findings.md sets it beside a post's operation
//   fixedWork                 optional; true: every task does the same work, so CPU time per task is steady
//                             and the runner reads its deviation from the cell's median (cpu_per_task_dev_pct)
//   -- what runs in the container (a CPU workload):
//   assertRunnable(params)    optional; run once by the primary before t0, throws when this Node.js
//                             cannot run the workload (better a message than a crash mid-run)
//   prepare(params)           optional, async; once per thread that runs tasks, before the start
//                             barrier, so loading costs stay out of task times
//   runTask(params, index)    starts one task: returns a promise for async work, or returns nothing
//                             once synchronous work is done (so its end is timed without a tick's delay)
//   readTaskValues(returned)  optional; numbers a task returned, kept on its record (script)
//   measure({ pids, records, t0 }) optional; run by the primary once every task has ended, while threads
//                             and processes are still up (pids: primary first, then cluster processes;
//                             records: every task's record; t0: the clock just before anything was
//                             spawned, as records have it); returns the result's `metrics` (the keys
//                             of `columns`, and user_<key> for a workload with userColumns)
//   -- or, a workload that runs its own way instead of tasks:
//   runPrimary(spec)          async; runs the whole run in the primary and returns the result object
//                             (result.js's shape: wall_ms, tasks, seen, ... metrics); import what it needs
//                             inside it, so the runner can import this module for its tables alone
//   serveChild(spec)          async; what each cluster child runs, if runPrimary forks any
//   serves                    true: a server measured by a load generator in a second container (http:
//                             see http/ and loader.js; runner/docker/runs/executor.js starts the pair)
//   external                  true: runs outside our image, measured from outside (command: the user's
//                             image and argv; runner/docker/runs/command-run.js with a cgroup watcher)
//   -- the user's own code (script, http's app, command), read by the runner only:
//   required                  optional; parameters without a default that must be written ([name])
//   checkParams(params, host, { configDir })   configDir: the experiments file's folder, which the
//                             user's paths are relative to (lib/user-files.js)
//   toContainer(params, { configDir })  optional; the params LAB_SPEC carries (paths as seen inside the
//                             container) and the read-only mounts: { params, mounts, workingDir? }
//   userCode                  optional; { kind: 'function' | 'app', at: [path in params] }: the module the
//                             preflight imports (runner/docker/runs/preflight-user-code.js) before the matrix starts
//   userColumns               optional; true: the numbers the user's code returns become user_<key>
//                             columns, learnt by the preflight (their keys cannot be listed here)
//   checkCell(values, params) optional; [{ axis, message, hint }] for axis values it cannot honour (params:
//                             the cell's params.<name>, defaults filled)
//   findIgnoredParams(written, filled)  optional; [{ path (relative to params.<name>), message, hint }] for keys
//                             written that nothing reads (http's `work` beside `app`): warned by `plan` and `run`
//   -- what the host can show, read by the runner (runner/model/, beside every measurement in the reports):
//   model                     optional; the capacity model of the workload's primary metrics:
//     calibration(params)     the rule that calibrates it from the same results folder (or null: no model):
//                             { kind: 'sample', sample(run, cell) }  one number per measured run (e.g. CPU
//                               time of one task, run.cpu_total_ms / params.tasks); the calibration is
//                               { value }: the median over the runs of the cells with the most usable CPUs;
//                             { kind: 'fit', metric, terms(cell) }  least squares of the metric on the terms
//                               ({ process: 2, thread: 8 }) over every run: { coefficients };
//                             { kind: 'lowest', parallelism(cell) }  the ideal: { base, medians } of the cell
//                               with the least min(parallelism, cpus)
//     predict(cell, calibration)  { <metric>: value } for the primary metrics and any other column it can
//                             predict (http bursts: burst_p50_ms, burst_first_p50_ms)
//     describe(calibration)   the calibration in words, for the reports
//                             `cell` is { params, cpus (usable: min(quota, cpuset size, host CPUs), may be
//                             fractional), pool (uv_threadpool_size, 4 unset), workers, cluster }; the wave
//                             arithmetic is lib/capacity.js

import * as argon2 from './argon2.js';
import * as command from './command.js';
import * as http from './http.js';
import * as idle from './idle.js';
import * as pbkdf2 from './pbkdf2.js';
import * as script from './script.js';
import * as sum from './sum.js';

export const WORKLOADS = { pbkdf2, argon2, http, idle, sum, script, command };

export const WORKLOAD_NAMES = Object.keys(WORKLOADS);

export function getWorkload(name) {
  return typeof name === 'string' && Object.hasOwn(WORKLOADS, name) ? WORKLOADS[name] : undefined;
}
