// Times one real command line the way a person feels it: from spawning the process to the first
// container it starts (the engine's own `start` event), and from its last line of output to its
// exit. Shared by `npm run bench` (the figures) and the exit-time test (the runner must not linger).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { LABELS } from '../../runner/docker/runs/labels.js';
import { formatOwner } from '../../runner/docker/runs/owner.js';
import { recordContainerEvents } from './container-events.js';

/**
 * @param {string[]} command  e.g. [process.execPath, 'runner/cli.js', 'run', '--config', file]
 * @param {{ docker?: import('dockerode'), cwd?: string, env?: object }} options  docker: to time the first container
 * @returns {Promise<{ pid: number, owner: string, exitCode: number, lines: string[], createdMs?: number,
 *   startupMs?: number, lingerMs: number, totalMs: number }>}
 */
export async function timeCommand(command, { docker, cwd, env } = {}) {
  const recording = docker && (await recordContainerEvents(docker, { actions: ['create', 'start'] }));
  const spawnedAt = Date.now();
  const began = performance.now();
  const child = spawn(command[0], command.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  // Read now: once the process has exited, its start time (part of the label) is gone from /proc.
  const owner = formatOwner(child.pid);
  const lines = [];
  let lastLineAt = began;
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      lines.push(line);
      lastLineAt = performance.now();
    });
  }
  const exitCode = await new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? signal));
  });
  const exitedAt = performance.now();
  const first = recording ? findFirst(await recording.stop(), spawnedAt, owner) : {};
  return {
    pid: child.pid,
    owner,
    exitCode,
    lines,
    createdMs: first.create === undefined ? undefined : first.create - spawnedAt,
    startupMs: first.start === undefined ? undefined : first.start - spawnedAt,
    lingerMs: exitedAt - lastLineAt,
    totalMs: exitedAt - began,
  };
}

/** Epoch ms of the first create and start since `sinceMs` of a container of this runner (its owner label). */
function findFirst(events, sinceMs, owner) {
  // Only this runner's: other runners may share the engine.
  const own = events.filter(
    (event) => event.Actor?.Attributes?.[LABELS.owner] === owner && event.timeNano / 1e6 >= sinceMs,
  );
  const first = (action) => own.find((event) => event.Action === action)?.timeNano / 1e6;
  return { create: first('create'), start: first('start') };
}
