// Helpers for integration tests against the real engine: what exists, and what was created. The engine
// may be shared (other test files, other people's runs), so a test counts only the containers of the
// runners it started: each container carries its runner's owner label (host, pid, start time).
import { setTimeout as delay } from 'node:timers/promises';
import { connectEngine } from '../../runner/docker/engines/connect.js';
import { listProjectContainers } from '../../runner/docker/runs/cleanup.js';
import { PROJECT, PROJECT_LABEL } from '../../runner/docker/runs/labels.js';
import { PROBE_ROLE } from '../../runner/docker/engines/engine-facts.js';

import { LABELS } from '../../runner/docker/runs/labels.js';
import { formatOwner } from '../../runner/docker/runs/owner.js';
import { runCli } from './run-cli.js';

export async function connectTestEngine() {
  return (await connectEngine({ setup: false })).docker;
}

export { listProjectContainers };

/** runCli that remembers the owner label of every runner it starts, in `owners`. */
export function createOwnRunner() {
  const owners = new Set();
  return {
    owners,
    run(args, options) {
      const child = runCli(args, options);
      owners.add(formatOwner(child.pid));
      return child;
    },
  };
}

/** The containers, existing now, of the runners whose owner labels are in `owners`. */
export async function listOwnContainers(docker, owners) {
  return (await listProjectContainers(docker)).filter((info) => owners.has(info.Labels?.[LABELS.owner]));
}

/** Of those, the containers of runs, not the CPU probe each runner starts once per engine before its first run. */
export async function listOwnRunContainers(docker, owners) {
  return (await listOwnContainers(docker, owners)).filter((info) => info.Labels?.[LABELS.run]);
}

/**
 * Containers of these runners CREATED since `sinceMs` (Date.now() before the action), even if already
 * removed (from the engine's events); the CPU probe a matrix runs once per engine before its runs
 * (docker/engines/engine-facts.js) is not counted.
 */
export async function countCreatedSince(docker, sinceMs, owners) {
  const until = Math.ceil(Date.now() / 1000) + 1;
  const stream = await docker.getEvents({
    since: Math.floor(sinceMs / 1000),
    until,
    filters: { type: ['container'], event: ['create'], label: [`${PROJECT_LABEL}=${PROJECT}`] },
  });
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  // The API filters by whole seconds; the event's own nanosecond time keeps an earlier test's container out.
  const events = Buffer.concat(chunks)
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
  return events.filter(
    (event) =>
      event.timeNano / 1e6 >= sinceMs &&
      owners.has(event.Actor?.Attributes?.[LABELS.owner]) &&
      event.Actor?.Attributes?.[LABELS.role] !== PROBE_ROLE,
  ).length;
}

/** Polls `check` until it returns something truthy (returned), or throws after timeoutMs. */
export async function waitFor(check, { timeoutMs = 60_000, everyMs = 100 } = {}) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const value = await check();
    if (value) return value;
    await delay(everyMs);
  }
  throw new Error(`condition not met within ${timeoutMs} ms`);
}
