// `init --rate N` and `--slo-p99 MS`: the traffic an HTTP service gets and its SLO, as the file init writes them. With
// a rate, the load is the open loop at it (docs/http.md) and the advice is on p99; with an SLO, the capacity search
// (`slo:`, docs/experiments.md) from the rate, or from 100 req/s. Without either, the closed loop as before.
import { LabError } from '../errors.js';
import { CAPACITY_DEFAULTS } from '../verdicts/capacity.js';

const START_RATE = 100;

/**
 * @param {{ rate?: number|string, sloP99?: number|string }} options
 * @param {string} kind  init's kind of code
 * @returns {{ rate?: number, sloP99?: number }}
 */
export function readTraffic({ rate, sloP99 }, kind) {
  const read = (value, flag, hint) => {
    if (value === undefined) return undefined;
    const number = Number(value);
    if (!(number > 0))
      throw new LabError('ERR_USAGE', `${flag}: expected a positive number, found ${JSON.stringify(value)}`, { hint });
    if (kind !== 'http-app' && kind !== 'start')
      throw new LabError('ERR_USAGE', `${flag} goes with --http-app or --start`, {
        hint: "a rate and an SLO are an HTTP service's: give --http-app FILE or --start",
      });
    return number;
  };
  return {
    rate: read(rate, '--rate', 'requests per second, e.g. --rate 200'),
    sloP99: read(sloP99, '--slo-p99', 'milliseconds, e.g. --slo-p99 50'),
  };
}

/** The most runs a cell may take: the capacity search's own cap, else the race's. */
export function capOf({ sloP99 }, raceCap) {
  return sloP99 ? CAPACITY_DEFAULTS.cap : raceCap;
}

/**
 * The experiment's lines for the traffic and today's setting: the SLO; else `recommend:` with the advice on p99 at a
 * rate and the setting the service runs today where its code says it (a knob's fallback when unset); none of these,
 * no line.
 * @param {{ name: string, value: string, why: string }[]} [today]
 */
export function formatTrafficKeys({ rate, sloP99 }, today = []) {
  if (sloP99)
    return [
      [
        `    slo: {p99_ms: ${sloP99}}`,
        'your SLO: per budget and setting, the most req/s whose p99 stays within it (docs/experiments.md)',
      ],
    ];
  const keys = [
    ...(rate ? ['metric: latency_p99_ms'] : []),
    ...(today.length ? [`default: {${today.map(({ name, value }) => `${name}: "${value}"`).join(', ')}}`] : []),
  ];
  if (keys.length === 0) return [];
  const why = [
    ...(rate ? ['at your rate, the answer is on p99 latency (every setting serves the rate)'] : []),
    ...(today.length ? [`today's setting, kept if within the margin: ${today.map(({ why }) => why).join('; ')}`] : []),
  ];
  return [[`    recommend: {${keys.join(', ')}}`, why.join('; ')]];
}

/** params.http's load lines: the open loop at the rate (or from it), else autocannon's closed loop. */
export function formatTrafficLoad({ rate, sloP99 }) {
  if (rate === undefined && sloP99 === undefined)
    return [['        connections: 10', 'connections autocannon keeps busy']];
  return [
    ['        load: open', 'requests at a fixed rate whatever the answers, each timed from when it was due'],
    [
      `        open: {rate: ${rate ?? START_RATE}}`,
      sloP99 ? 'req/s the capacity search starts from (it doubles or halves from here)' : 'req/s: your traffic',
    ],
  ];
}
