// Every workload this image can run, by the name LAB_SPEC.workload uses. A new CPU workload is one
// module beside these and one entry here. A CPU workload module exports:
//   defaults                  every parameter with its default; spec.js checks given values against
//                             their types (numbers: positive integers). `tasks` is how many tasks run.
//   checkParams(params)       optional; throws WorkloadError ERR_SPEC_INVALID for what types cannot say
//   assertRunnable()          optional; run once by the primary before t0, throws when this Node.js
//                             cannot run the workload (better a message than a crash mid-run)
//   prepare(params)           optional, async; once per thread that runs tasks, before the start
//                             barrier, so loading costs stay out of task times
//   runTask(params, index)    starts one task: returns a promise for async work, or returns nothing
//                             once synchronous work is done (so its end is timed without a tick's delay)
//   readTaskValues(returned)  optional; numbers a task returned, kept on its record (script)
//   measure({ pids })         optional; run by the primary once every task has ended, while threads and
//                             processes are still up (pids: primary first, then cluster processes;
//                             records: every task's record);
//                             returns the workload's own numbers, the result's `metrics`
// `http` is not a CPU workload: it exports `serves` (run.js runs it as a server, see http/) and
// `parseParams` (spec.js lets it check its nested parameters itself).

import * as argon2 from './argon2.js';
import * as http from './http.js';
import * as idle from './idle.js';
import * as pbkdf2 from './pbkdf2.js';
import * as script from './script.js';
import * as sum from './sum.js';

const WORKLOADS = { pbkdf2, argon2, http, idle, sum, script };

export function getWorkload(name) {
  return typeof name === 'string' && Object.hasOwn(WORKLOADS, name) ? WORKLOADS[name] : undefined;
}

export function listWorkloadNames() {
  return Object.keys(WORKLOADS);
}
