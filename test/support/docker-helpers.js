// Helpers for integration tests against the real engine: what exists, and what was created.
import { connectEngine } from '../../runner/docker/engine.js';
import { listProjectContainers } from '../../runner/docker/cleanup.js';
import { PROJECT, PROJECT_LABEL } from '../../runner/docker/client.js';
import { PROBE_ROLE } from '../../runner/docker/engine-facts.js';
import { ROLE_LABEL } from '../../runner/docker/http-pair.js';

export async function connectTestEngine() {
  return (await connectEngine({ setup: false })).docker;
}

export { listProjectContainers };

/**
 * Project containers CREATED since `sinceMs` (Date.now() before the action), even if already removed (from the
 * engine's events); the CPU probe a matrix runs once per engine before its runs (docker/engine-facts.js) is not counted.
 */
export async function countCreatedSince(docker, sinceMs) {
  const until = Math.ceil(Date.now() / 1000) + 1;
  const stream = await docker.getEvents({
    since: Math.floor(sinceMs / 1000),
    until,
    filters: { type: ['container'], event: ['create'], label: [`${PROJECT_LABEL}=${PROJECT}`] },
  });
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  // The API filters by whole seconds; the event's own nanosecond time keeps an earlier test's container out.
  const events = Buffer.concat(chunks).toString('utf8').split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line));
  return events.filter((event) => event.timeNano / 1e6 >= sinceMs && event.Actor?.Attributes?.[ROLE_LABEL] !== PROBE_ROLE).length;
}
