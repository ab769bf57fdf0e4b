// One load generator's measurement for `npm run bench:latency --generators`: the lab's open loop (undici Pool,
// images/workload/http/open-loop.js) or autocannon at a fixed rate with or without HdrHistogram's correction for
// coordinated omission. Prints one JSON line: the percentiles of the response times in ms and how many were answered.
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { createLatencyRecorder, summarizeHistogram } from '../../images/workload/http/latency.js';
import { runOpenLoop, seededRandom } from '../../images/workload/http/open-loop.js';

// autocannon and hdr-histogram-js are the workload image's packages (images/workload/node_modules).
const require = createRequire(new URL('../../images/workload/package.json', import.meta.url));
const autocannon = require('autocannon');
const { build } = require('hdr-histogram-js');

const { values } = parseArgs({
  options: {
    kind: { type: 'string' },
    port: { type: 'string' },
    rate: { type: 'string' },
    seconds: { type: 'string' },
    connections: { type: 'string', default: '50' },
    seed: { type: 'string', default: '1' },
  },
});
const rate = Number(values.rate);
const seconds = Number(values.seconds);
const origin = `http://127.0.0.1:${values.port}`;

if (values.kind === 'open') {
  const recorder = createLatencyRecorder();
  const result = await runOpenLoop({
    origin,
    request: { path: '/work' },
    rate,
    arrivals: 'poisson',
    durationMs: seconds * 1000,
    connections: 1000,
    graceMs: 10_000,
    recorder,
    random: seededRandom(Number(values.seed)),
  });
  print(recorder.summarize(), { lag_p99_ms: result.lag.p99, queued: result.queued });
} else {
  // autocannon's own correction assumes 1 ms between requests: it is off, and HdrHistogram's is applied here with
  // the interval each connection was meant to keep (connections ÷ rate).
  const connections = Number(values.connections);
  const corrected = build({ bitBucketSize: 32, numberOfSignificantValueDigits: 3, autoResize: true });
  const raw = createLatencyRecorder();
  const expectedUs = Math.round((connections / rate) * 1e6);
  const instance = autocannon({
    url: `${origin}/work`,
    connections,
    overallRate: rate,
    duration: seconds,
    ignoreCoordinatedOmission: true,
  });
  instance.on('response', (_client, _status, _bytes, ms) => {
    raw.record(ms);
    corrected.recordValueWithExpectedInterval(Math.max(1, Math.round(ms * 1000)), expectedUs);
  });
  await instance;
  print(values.kind === 'autocannon-hdr' ? summarizeHistogram(corrected) : raw.summarize(), {});
}

function print(summary, extra) {
  process.stdout.write(`${JSON.stringify({ ...summary, ...extra })}\n`);
}
