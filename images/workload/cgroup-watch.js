// Entry of the cgroup watcher (node /app/cgroup-watch.js): a sidecar container that reads another
// container's cgroup from the engine host's /sys/fs/cgroup (bind-mounted read-only at /host/cgroup)
// while it runs. It measures commands in images we cannot put our probe into (workload `command`).
//
// Why a sidecar: the engine's stats API reports nothing once the container has exited, and its
// stream samples once a second. The counters are cumulative (CPU time, throttling) or high-water
// marks (memory peak), so the last reading taken is the total so far. The watcher reads every
// POLL_MS; when it finds the cgroup with no process left in it, that reading is the final one
// (`final: true`, exact), taken in the moment between the command's exit and the engine removing
// the cgroup. If the cgroup is gone first, the last reading is at most POLL_MS old (`final: false`).
//
// The host's /proc/stat (host-wide, also in this container) is read at the first reading of the cgroup and again
// at the last: the whole host's CPU time over the command's life, less the watcher's own (`host`), from which the
// runner takes the command's to get what the rest of the host used.
//
// LAB_WATCH: {"id": "<container id>", "root"?: where the hierarchy is mounted, for tests}. Prints
// {"ready":true} once it polls (the runner starts the command only then), {"watching":true} once it
// has found the cgroup, and a last JSON line with the reading when the cgroup is gone.

import { readdirSync } from 'node:fs';
import os from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { readCgroupSnapshot } from './probe/cgroup.js';
import { diffHostCpu, readHostCpu } from './probe/host-cpu.js';
import { readTextOrNull } from './probe/read-text.js';

const { id, root: HOST = '/host/cgroup' } = JSON.parse(process.env.LAB_WATCH ?? '{}');
const POLL_MS = 5;
const FIND_TIMEOUT_MS = 60_000;

// Lowest priority (raising one's own niceness needs no capability): when the command keeps every CPU
// busy, the watcher yields to it instead of taking ~7% of a CPU; a reading is then late by a wakeup.
os.setPriority(19);

process.stdout.write('{"ready":true}\n');
const found = await findCgroup(id);
if (found) process.stdout.write('{"watching":true}\n');
if (!found) finish({ found: false, final: false, samples: 0, snapshot: null });
else finish(await follow(found));

/** @returns {Promise<{version: 1|2, path: string}|null>} path relative to the hierarchy root */
async function findCgroup(containerId) {
  const version = readTextOrNull(`${HOST}/cgroup.controllers`) === null ? 1 : 2;
  const base = version === 1 ? `${HOST}/cpuacct` : HOST;
  const candidates = [`docker/${containerId}`, `system.slice/docker-${containerId}.scope`];
  const deadline = performance.now() + FIND_TIMEOUT_MS;
  for (let round = 0; performance.now() < deadline; round++) {
    const known = candidates.find((path) => readTextOrNull(`${base}/${path}/cgroup.procs`) !== null);
    if (known) return { version, path: known };
    // Other layouts (rootless, a custom cgroup parent): search, less often.
    if (round % 20 === 19) {
      const searched = searchDir(base, containerId, 4);
      if (searched) return { version, path: searched };
    }
    await delay(POLL_MS);
  }
  return null;
}

function searchDir(base, containerId, depth, relative = '') {
  if (depth === 0) return null;
  let entries;
  try {
    entries = readdirSync(`${base}/${relative}`, { withFileTypes: true });
  } catch {
    return null;
  }
  for (const entry of entries.filter((each) => each.isDirectory())) {
    const path = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.name.includes(containerId)) return path;
    const deeper = searchDir(base, containerId, depth - 1, path);
    if (deeper) return deeper;
  }
  return null;
}

async function follow({ version, path }) {
  // v1: every controller has its own tree (cpu/, cpuacct/, memory/, cpuset/) with the same path in it.
  const read =
    version === 1
      ? (file) => readTextOrNull(file.replace(/^\/([^/]+)\//, (_, controller) => `${HOST}/${controller}/${path}/`))
      : (file) => readTextOrNull(`${HOST}/${path}/${file.slice(1)}`);
  const procs = () => read(version === 1 ? '/cpuacct/cgroup.procs' : '/cgroup.procs');
  let last = null;
  let samples = 0;
  let memoryMax = null;
  let seenRunning = false;
  let hostWindow = null;
  for (;;) {
    const before = procs();
    const snapshot = readCgroupSnapshot(read, '');
    // v2 kernels before 5.19 have no memory.peak: keep the highest memory.current seen.
    const current = version === 2 ? Number(read('/memory.current')) : NaN;
    if (Number.isFinite(current)) memoryMax = Math.max(memoryMax ?? 0, current);
    const after = procs();
    if (before === null || after === null || snapshot.totalMs === null)
      return {
        found: true,
        final: false,
        samples,
        snapshot: last && withPeak(last, memoryMax),
        host: hostWindow?.end() ?? null,
      };
    // From the first reading: the cgroup appears when the command starts. (Not from the first reading with a process:
    // cgroup.procs lists only the processes of the reader's pid namespace, so from this container it can read
    // empty all along.)
    hostWindow ??= startHostWindow();
    last = snapshot;
    samples++;
    // Empty before processes join it (start) and after they are gone (exit): only the second counts.
    const empty = before.trim() === '' && after.trim() === '';
    if (!empty) seenRunning = true;
    else if (seenRunning)
      return { found: true, final: true, samples, snapshot: withPeak(last, memoryMax), host: hostWindow.end() };
    await delay(POLL_MS);
  }
}

/** The host's CPU time from now to end(), less the watcher's own (it is the lab's, not the rest of the host's). */
function startHostWindow() {
  const start = readHostCpu();
  const ownStart = process.cpuUsage();
  return {
    end() {
      const host = diffHostCpu(start, readHostCpu());
      if (!host) return null;
      const own = process.cpuUsage(ownStart);
      return { cpu_ms: host.cpuMs - (own.user + own.system) / 1000, window_ms: host.windowMs, cpus: host.cpus };
    },
  };
}

function withPeak(snapshot, memoryMax) {
  return { ...snapshot, memoryPeakBytes: snapshot.memoryPeakBytes ?? memoryMax };
}

function finish(report) {
  process.stdout.write(`${JSON.stringify(report)}\n`, () => process.exit(0));
}
