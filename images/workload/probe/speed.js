// The speed probe: a fixed piece of single-thread CPU work (one pbkdf2Sync of SPEED_PROBE_ITERATIONS HMAC-SHA-256
// rounds, ≈ 0.1 s of CPU on the 2-vCPU VM this was built on), run by the primary before anything else of the run, so
// that its time says how fast this container's CPU was just before the workload. On a KVM guest the vCPU itself
// slows down and speeds up for minutes at a time (docs/bench-noise.md); two runs of one cell that differ only by that
// differ in their probe times too, so the analysis can take the probe out of the comparison (a covariate: regress
// log wall_ms on log probe within a cell). Wall time and CPU time are both kept: under a CPU quota below 1 the
// probe's wall time includes throttling, and on a host whose other processes take the CPU its CPU time does not.
import crypto from 'node:crypto';
import { readClockMs } from '../clock.js';

// Fixed forever: changing it changes what every probe column means.
export const SPEED_PROBE_ITERATIONS = 500_000;

/** @returns {{ wall_ms: number, cpu_ms: number }} the probe's wall time and the process's CPU time over it */
export function runSpeedProbe() {
  const cpuBefore = process.cpuUsage();
  const start = readClockMs();
  crypto.pbkdf2Sync('speed probe', 'node-threads-lab', SPEED_PROBE_ITERATIONS, 32, 'sha256');
  const wallMs = readClockMs() - start;
  const cpu = process.cpuUsage(cpuBefore);
  return { wall_ms: wallMs, cpu_ms: (cpu.user + cpu.system) / 1000 };
}
