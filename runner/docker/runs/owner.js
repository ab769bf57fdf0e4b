// Who started a container: `host/pid/start` of the runner, where start is the process's start time (clock ticks
// after boot, /proc/PID/stat field 22). A pid alone is not enough: a runner killed with SIGKILL stays a zombie
// for a moment (kill(pid, 0) still succeeds on it), and a long-lived host reuses pids. A zombie, a missing process
// or a pid that started at another time is not the owner.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** The process's state letter and start time, or null when /proc has no such process. */
export function readProcessStat(pid) {
  let text;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (error) {
    // No /proc at all (macOS, Windows): the caller falls back to signal 0.
    return error.code === 'ENOENT' && !procMounted() ? undefined : null;
  }
  // The command name (field 2) is in parentheses and may hold spaces or parentheses: count from the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0], start: fields[19] };
}

let procChecked;
function procMounted() {
  if (procChecked === undefined) {
    try {
      readFileSync('/proc/self/stat');
      procChecked = true;
    } catch {
      procChecked = false;
    }
  }
  return procChecked;
}

/** The owner label of a process of this host: of this runner, or (in tests and benchmarks) of a runner just spawned. */
export function formatOwner(pid) {
  return [hostname(), pid, readProcessStat(pid)?.start].filter((part) => part !== undefined && part !== null).join('/');
}

/** This runner's owner label. */
export const OWNER = formatOwner(process.pid);

/**
 * Is the runner named by an owner label still running on this host? Labels of runners before the start time was
 * recorded (`host/pid`) are judged by the pid alone, minus zombies.
 */
export function isOwnerAlive(owner, { readStat = readProcessStat, signalZero = sendSignalZero } = {}) {
  const [, pid, start] = owner.split('/');
  const stat = readStat(Number(pid));
  if (stat === undefined) return signalZero(Number(pid));
  if (stat === null || stat.state === 'Z' || stat.state === 'X') return false;
  return start === undefined || stat.start === start;
}

/** The host part of an owner label. */
export function ownerHost(owner) {
  return owner.split('/')[0];
}

function sendSignalZero(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}
