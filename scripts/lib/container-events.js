// The containers of the project an engine creates and starts while something runs, from the engine's own events (so
// even those removed again at once count). Asking the engine afterwards with `since` is not enough: dockerd keeps
// only its last 256 events, and a shared engine that several runners use (each run's containers, the host samples of
// their busy gates) fills them within a minute; a matrix of a few minutes then seems to have created only its last
// containers. So the events are streamed from the start, and one look back at the end picks up those the stream has
// not delivered yet. Shared by the integration tests (test/support/docker-helpers.js) and time-cli.js.
import { PROJECT, PROJECT_LABEL } from '../../runner/docker/runs/labels.js';

/**
 * Starts recording the project's container events of these actions, from now on.
 * @param {import('dockerode')} docker
 * @param {{ actions?: string[], labels?: string[] }} [options]  labels: more `key=value` filters
 * @returns {Promise<{ stop(): Promise<object[]> }>}  stop: every event from the start until now, in time order
 */
export async function recordContainerEvents(docker, { actions = ['create'], labels = [] } = {}) {
  const sinceMs = Date.now();
  const filters = { type: ['container'], event: actions, label: [`${PROJECT_LABEL}=${PROJECT}`, ...labels] };
  const seen = new Map();
  // The API filters by whole seconds; the event's own nanosecond time keeps an earlier container out.
  const keep = (line) => {
    if (!line.trim()) return;
    const event = JSON.parse(line);
    if (event.timeNano / 1e6 >= sinceMs) seen.set(`${event.Actor?.ID} ${event.Action} ${event.timeNano}`, event);
  };
  const live = await docker.getEvents({ since: Math.floor(sinceMs / 1000), filters });
  // A test that fails before stop() must not keep its process alive.
  live.socket?.unref();
  let partial = '';
  live.on('data', (chunk) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop();
    lines.forEach(keep);
  });
  live.on('error', () => {});
  return {
    async stop() {
      const tail = await docker.getEvents({
        since: Math.floor(sinceMs / 1000),
        until: Math.ceil(Date.now() / 1000) + 1,
        filters,
      });
      const chunks = [];
      for await (const chunk of tail) chunks.push(chunk);
      Buffer.concat(chunks).toString('utf8').split('\n').forEach(keep);
      live.destroy();
      return [...seen.values()].sort((a, b) => a.timeNano - b.timeNano);
    },
  };
}
