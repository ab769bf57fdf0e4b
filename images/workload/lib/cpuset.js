// CPU lists as `docker run --cpuset-cpus` and /sys/devices/system/cpu/online write them: "0", "0-1", "0,2", "0-1,3".
// The one cpuset parser: config checks, loader limits and the reports' CPU capacity all read lists here.

export const CPUSET_PATTERN = '^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$';

/** "0-1,3" → [{ text: '0-1', from: 0, to: 1 }, { text: '3', from: 3, to: 3 }]; undefined if not a CPU list. */
export function parseCpuset(text) {
  const cpuset = String(text).trim();
  if (!new RegExp(CPUSET_PATTERN).test(cpuset)) return undefined;
  return cpuset.split(',').map((part) => {
    const [from, to = from] = part.split('-').map(Number);
    return { text: part, from, to };
  });
}

/** Every CPU id a parsed list names; a descending range names none, the validator reports it. */
export function listCpuIds(ranges) {
  const ids = new Set();
  for (const { from, to } of ranges) {
    for (let id = from; id <= to; id += 1) ids.add(id);
  }
  return [...ids].sort((a, b) => a - b);
}

/** "0-2,5" → [0, 1, 2, 5]; [] for no list. To compare what was asked with what the kernel reports ("0,1" is "0-1"). */
export function parseCpuList(list) {
  if (list === undefined || list === null || list === '') return [];
  const ranges = parseCpuset(list);
  return ranges ? listCpuIds(ranges) : [];
}

/** [0, 1, 2, 5] → "0-2,5" */
export function formatCpuIds(ids) {
  const parts = [];
  for (const id of [...ids].sort((a, b) => a - b)) {
    const last = parts.at(-1);
    if (last && id === last.to + 1) last.to = id;
    else parts.push({ from: id, to: id });
  }
  return parts.map(({ from, to }) => (from === to ? `${from}` : `${from}-${to}`)).join(',');
}
