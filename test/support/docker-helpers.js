// Helpers for integration tests against the real engine: what exists, and what was created. The engine
// may be shared (other test files, other people's runs), so a test counts only the containers of the
// runners it started: each container carries its runner's owner label (host, pid, start time).
import { setTimeout as delay } from 'node:timers/promises';
import { connectEngine } from '../../runner/docker/engines/connect.js';
import { listProjectContainers } from '../../runner/docker/runs/cleanup.js';
import { PROBE_ROLE } from '../../runner/docker/engines/engine-facts.js';
import { LABELS } from '../../runner/docker/runs/labels.js';
import { SAMPLE_ROLE } from '../../runner/docker/runs/sample-host.js';
import { recordContainerEvents } from '../../scripts/lib/container-events.js';
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
 * Watches, from now on, the containers these runners create, even those removed again at once (the engine's events,
 * scripts/lib/container-events.js: asked only afterwards, a busy engine would have dropped the older ones). `stop()`
 * after the action: the create events of containers of runs, neither the CPU probe a matrix runs once per engine
 * before its runs (docker/engines/engine-facts.js) nor the host samples of a busy gate (docker/runs/sample-host.js).
 * @param {Set<string>} owners  read at stop(): the runners started in between count too
 */
export async function watchCreated(docker, owners) {
  const recording = await recordContainerEvents(docker);
  return {
    async stop() {
      return (await recording.stop()).filter(
        (event) =>
          owners.has(event.Actor?.Attributes?.[LABELS.owner]) &&
          ![PROBE_ROLE, SAMPLE_ROLE].includes(event.Actor?.Attributes?.[LABELS.role]),
      );
    },
    async count() {
      return (await this.stop()).length;
    },
  };
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
