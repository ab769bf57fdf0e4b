// Checks that depend on the machine: JSON Schema cannot know how many CPUs the host has.

import { formatCpuIds, listCpuIds, parseCpuset } from './cpuset.js';

/** `docker run --cpus` refuses more CPUs than the host has. */
export function checkCpus(value, path, host) {
  if (!Number.isFinite(value) || value <= 0 || value <= host.cpus) return [];
  return [{
    path,
    message: `expected at most ${host.cpus} (this host's CPU count), found ${value}`,
    hint: `Docker refuses a larger --cpus; write e.g. \`cpus: [1, ${host.cpus}]\``,
  }];
}

/** Every range low-high and every CPU online, or the container fails to start. */
export function checkCpuset(value, path, host) {
  const isId = Number.isInteger(value) && value >= 0;
  const ranges = (typeof value === 'string' || isId) && parseCpuset(value);
  if (!ranges) return [];
  const descending = ranges.find(({ from, to }) => from > to);
  if (descending) {
    return [{
      path,
      message: `expected ranges written low-high, found ${quoteRange(descending.text, value)}`,
      hint: `write \`${descending.to}-${descending.from}\``,
    }];
  }
  const missing = listCpuIds(ranges).filter((id) => !host.cpuIds.includes(id));
  if (missing.length === 0) return [];
  const online = formatCpuIds(host.cpuIds);
  return [{
    path,
    message:
      `CPU ${formatCpuIds(missing)} does not exist on this host; ` +
      `expected CPUs from ${online}, found ${JSON.stringify(String(value))}`,
    hint: `this host's online CPUs are ${online}; write e.g. \`cpuset: ["${host.cpuIds[0]}"]\``,
  }];
}

function quoteRange(range, cpuset) {
  const text = String(cpuset);
  return range === text ? JSON.stringify(text) : `${JSON.stringify(range)} in ${JSON.stringify(text)}`;
}
