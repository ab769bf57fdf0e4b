// The machine the containers run on: `--cpus` cannot exceed its CPU count and `--cpuset-cpus` must name its CPUs.

import { readFileSync } from 'node:fs';
import os from 'node:os';
import { listCpuIds, parseCpuset } from '../../images/workload/lib/cpuset.js';

const ONLINE_CPUS_FILE = '/sys/devices/system/cpu/online';

/** { cpus: 2, cpuIds: [0, 1] } for this machine. */
export function readHost() {
  const cpus = os.cpus().length;
  return { cpus, cpuIds: readOnlineCpuIds() ?? Array.from({ length: cpus }, (_, id) => id) };
}

function readOnlineCpuIds() {
  try {
    const ranges = parseCpuset(readFileSync(ONLINE_CPUS_FILE, 'utf8'));
    return ranges && listCpuIds(ranges);
  } catch {
    // Not Linux (Docker Desktop runs a VM): assume ids 0..n-1, which is what that VM has.
    return undefined;
  }
}
