// Checks that depend on the machine: JSON Schema cannot know how many CPUs the host has.

import { formatCpuIds, listCpuIds, parseCpuset } from './cpuset.js';

// The smallest CFS quota Docker accepts: 1 ms per 100 ms period.
export const MIN_CPUS = 0.01;

/** `docker run --cpus` refuses more CPUs than the host has, and less than MIN_CPUS. */
export function checkCpus(value, path, host) {
  if (!Number.isFinite(value) || value <= 0) return [];
  // More than 3 decimals is the schema's to report.
  if (value < MIN_CPUS && Number.isInteger(Math.round(value * 1e9) / 1e6)) {
    return [
      {
        path,
        message: `expected at least ${MIN_CPUS}, found ${value}: Docker refuses a quota below ${MIN_CPUS} CPU (1 ms of CPU time per 100 ms period)`,
        hint: 'write e.g. `cpus: [0.1, 0.5, 1]`',
      },
    ];
  }
  if (value <= host.cpus) return [];
  return [
    {
      path,
      message: `expected at most ${host.cpus} (this host's CPU count), found ${value}`,
      hint: `Docker refuses a larger --cpus; write e.g. \`cpus: [1, ${host.cpus}]\``,
    },
  ];
}

/** Every range low-high and every CPU online, or the container fails to start. */
export function checkCpuset(value, path, host) {
  const isId = Number.isInteger(value) && value >= 0;
  const ranges = (typeof value === 'string' || isId) && parseCpuset(value);
  if (!ranges) return [];
  const descending = ranges.find(({ from, to }) => from > to);
  if (descending) {
    return [
      {
        path,
        message: `expected ranges written low-high, found ${quoteRange(descending.text, value)}`,
        hint: `write \`${descending.to}-${descending.from}\``,
      },
    ];
  }
  const missing = listCpuIds(ranges).filter((id) => !host.cpuIds.includes(id));
  if (missing.length === 0) return [];
  const online = formatCpuIds(host.cpuIds);
  return [
    {
      path,
      message:
        `CPU ${formatCpuIds(missing)} does not exist on this host; ` +
        `expected CPUs from ${online}, found ${JSON.stringify(String(value))}`,
      hint: `this host's online CPUs are ${online}; write e.g. \`cpuset: ["${host.cpuIds[0]}"]\``,
    },
  ];
}

function quoteRange(range, cpuset) {
  const text = String(cpuset);
  return range === text ? JSON.stringify(text) : `${JSON.stringify(range)} in ${JSON.stringify(text)}`;
}
