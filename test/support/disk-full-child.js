// Run by test/unit/results/disk-full.test.js inside `unshare -rm` (its own mount namespace, no root needed) with a
// small tmpfs mounted at DIR: a matrix of 4 runs on two lanes with the fake executor, the disk filled where the
// scenario says, then — space freed — a resume. Prints what happened as one JSON line: the tmpfs is gone when
// this process ends.
//   node disk-full-child.js DIR start     the disk is full before run.json is written
//   node disk-full-child.js DIR headers   full once run.json is written, before runs.csv and tasks.csv get headers
//   node disk-full-child.js DIR between   full between two runs, while the other lane has a run in flight
import { EventEmitter } from 'node:events';
import { existsSync, readdirSync, readFileSync, rmSync, writeSync, openSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { planExperiments } from '../../runner/plan/plan-runs.js';
import { readResumeState } from '../../runner/results/resume.js';
import { prepareJobs, runExperiments } from '../../runner/run/run-experiments.js';
import { createFakeExecutor, FAKE_CONTEXT as CONTEXT } from '../../runner/backend/fake.js';

const [dir, scenario] = process.argv.slice(2);
const FILLER = join(dir, 'filler');
const CONFIG = {
  file: 'x.yml',
  experiments: [
    {
      name: 'full',
      repetitions: 2,
      timeout: 10,
      memory_bytes: 2 ** 30,
      env: {},
      include: [],
      exclude: [],
      matrix: { workload: ['pbkdf2'], cpus: [1, 2] },
      params: { pbkdf2: { tasks: 100 } },
    },
  ],
};
const outDir = join(dir, 'results');

// Writes until the device says no more.
function fillDisk() {
  const fd = openSync(FILLER, 'a');
  const block = Buffer.alloc(4096, 120);
  try {
    for (;;) writeSync(fd, block);
  } catch (error) {
    if (error.code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

// Two lanes: call 2 waits until call 1's row is written, then fills the disk and returns; call 3, on the other
// lane meanwhile, is a run in flight that the abort ends (a real lane stops and removes its container), or, if
// no abort comes, a run that finishes after 3 s. A run has 100 tasks, so its tasks.csv rows need a new page of
// the tmpfs (a full disk still takes bytes into the last page of a file).
function createLanes({ fillBetween }) {
  let calls = 0;
  const aborted = [];
  const fake = createFakeExecutor();
  const execute = async (run, { signal } = {}) => {
    const call = ++calls;
    if (fillBetween && call === 2) {
      await new Promise((resolve) => {
        setTimeout(resolve, 100);
      });
      fillDisk();
    }
    if (fillBetween && call === 3) {
      const timer = new Promise((resolve) => {
        setTimeout(resolve, 3000, false);
      });
      const abort = new Promise((resolve) => {
        signal.addEventListener('abort', () => resolve(true), { once: true });
      });
      if (await Promise.race([abort, timer])) {
        aborted.push(run.runKey);
        return { aborted: true };
      }
    }
    return fake.execute(run);
  };
  return {
    aborted,
    calls: () => calls,
    lanes: [0, 1].map((index) => ({ id: `fake#${index}`, engine: 'fake', slot: { index }, execute })),
  };
}

const read = (name) => (existsSync(join(outDir, name)) ? readFileSync(join(outDir, name), 'utf8') : null);

const plans = planExperiments(CONFIG, { defaultNodeMajor: 24, seed: 7 });
if (scenario === 'start') fillDisk();
const events = new EventEmitter();
if (scenario === 'headers') events.once('experiment-start', fillDisk);
const first = createLanes({ fillBetween: scenario === 'between' });
let error = null;
try {
  await runExperiments({
    jobs: prepareJobs({ plans, out: outDir, resultsRoot: dir }),
    lanes: first.lanes,
    context: CONTEXT,
    events,
  });
} catch (caught) {
  error = {
    name: caught.name,
    code: caught.code,
    exitCode: caught.exitCode,
    message: caught.message,
    hint: caught.hint,
    formatted: caught.format?.(),
  };
}
const stopped = {
  error,
  files: existsSync(outDir) ? readdirSync(outDir).sort() : [],
  runsCsv: read('runs.csv'),
  tasksCsv: read('tasks.csv'),
  calls: first.calls(),
  aborted: first.aborted,
};

// Space freed: the folder finishes where it stopped (when it has a run.json to resume from).
rmSync(FILLER, { force: true });
let resumed = null;
if (existsSync(join(outDir, 'run.json'))) {
  const state = readResumeState(outDir);
  const second = createLanes({ fillBetween: false });
  await runExperiments({ jobs: prepareJobs({ plans, resumed: state }), lanes: second.lanes, context: CONTEXT });
  resumed = { calls: second.calls(), runsCsv: read('runs.csv'), tasksCsv: read('tasks.csv') };
}
process.stdout.write(`${JSON.stringify({ stopped, resumed })}\n`);
