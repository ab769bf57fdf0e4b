// What load an http cell puts on its server, in the words `plan` prints before anything runs: the open loop's rate and
// arrivals, the closed loop's connections, bursts, or none; and, with `slo:`, what the capacity search looks for.

/** @param {object} params  params.http, defaults filled @returns {string} */
export function describeLoad(params) {
  const period = `${params.duration} s measured after ${params.warmup} s of warm-up`;
  if (params.load === 'open') {
    const { rate, arrivals, connections } = params.open;
    return `open loop: ${rate} req/s, ${arrivals === 'poisson' ? 'Poisson' : 'evenly spaced'} arrivals, each request timed from when it was due (at most ${connections} connections); ${period}`;
  }
  if (params.load === 'burst')
    return `${params.burst.rounds} bursts of ${params.burst.requests} simultaneous requests, each burst timed to its last answer`;
  if (params.load === 'idle') return `no request for ${params.duration} s: the event-loop delay at rest`;
  const pace = params.rate === undefined ? 'as fast as answers come' : `at most ${params.rate} req/s`;
  return `closed loop: ${params.connections} connection${params.connections === 1 ? '' : 's'} × ${params.pipelining} in flight, ${pace} (each waits for its answer before the next); ${period}`;
}

/**
 * The capacity search of an experiment with `slo:`, said before it runs.
 * @param {{ slo: { p99_ms: number, resolution: number }, adaptive?: { max_repetitions: number } }} experiment
 */
export function describeSlo(experiment) {
  const { slo, adaptive } = experiment;
  return (
    `capacity search: per cell the most req/s within p99 ≤ ${slo.p99_ms} ms, from the open loop's rate, doubling or halving then bisecting, ` +
    `until the rates shown within and over it (95%) are within ${Math.round(slo.resolution * 100)}% or a cell has run ${adaptive?.max_repetitions} times`
  );
}
