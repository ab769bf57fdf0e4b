// Whether the two cells of a claim's comparison stand where the post's result was measured: the CPUs, the Node.js
// version and the sizes a claim's `conditions:` names (the post's own, named or implied by it). The claim's class
// reads it (capacity-class.js) before the verdict: a hold counts for the post, and a refutation against it, only where
// every condition is met.
import { usableCpus } from '../domain/usable-cpus.js';
import { formatRatio } from './format-ratio.js';

/**
 * @param {object|undefined} conditions  a claim's normalized `conditions` ({ cpus, node, params, note })
 * @param {{ a: object, b: object }} pair  the summary cells compared (values, params, hostCpus, runs)
 * @returns {{ cpus: boolean|null, cpusText: string, unmet: string[] }}  cpus: whether both cells have the post's CPUs
 *   (null: the claim names none); unmet: every condition a cell misses, in words ("these cells have 2 CPUs, the
 *   post's had 16", "node 24 (the post's: 20)")
 */
export function checkConditions(conditions, { a, b }) {
  if (!conditions) return { cpus: null, cpusText: '', unmet: [] };
  const cpus = checkCpus(conditions.cpus, a, b);
  return {
    ...cpus,
    unmet: [
      ...(cpus.cpus === false ? [cpus.cpusText] : []),
      ...checkNode(conditions.node, a, b),
      ...checkParams(conditions.params, a, b),
    ],
  };
}

// A number: both cells had that many CPUs in the post; a pair: A's and B's (a claim that compares CPUs).
function checkCpus(wanted, a, b) {
  if (wanted === undefined) return { cpus: null, cpusText: '' };
  const [forA, forB] = Array.isArray(wanted) ? wanted : [wanted, wanted];
  const [hasA, hasB] = [a, b].map((cell) => usableCpus(cell.values, cell.hostCpus));
  const same = (has, want) => has !== null && Math.abs(has - want) < 1e-9;
  const text = (value) => (value === null ? '?' : formatRatio(value));
  const cpusText =
    forA === forB && hasA === hasB
      ? `these cells have ${text(hasA)} CPU${hasA === 1 ? '' : 's'}, the post's had ${text(forA)}`
      : `these cells have ${text(hasA)} and ${text(hasB)} CPUs, the post's had ${text(forA)} and ${text(forB)}`;
  return { cpus: same(hasA, forA) && same(hasB, forB), cpusText };
}

function checkNode(majors, a, b) {
  if (majors === undefined) return [];
  const found = [...new Set([a, b].map(readNodeMajor).filter((major) => major !== null))];
  return found
    .filter((major) => !majors.includes(major))
    .map((major) => `node ${major} (the post's: ${majors.join(', ')})`);
}

/** The cell's Node.js major: its `node` axis, else the version its runs recorded; null when neither says. */
export function readNodeMajor(cell) {
  if (typeof cell.values?.node === 'number') return cell.values.node;
  const version = cell.runs?.find((run) => typeof run.node_version === 'string' && run.node_version)?.node_version;
  const major = version ? Number.parseInt(version.replace(/^v/, ''), 10) : Number.NaN;
  return Number.isFinite(major) ? major : null;
}

function checkParams(params, a, b) {
  if (!params) return [];
  const issues = new Set();
  for (const cell of [a, b]) {
    const wanted = params[cell.workload];
    if (!wanted || !cell.params) continue;
    for (const [key, value] of Object.entries(wanted)) {
      if (JSON.stringify(cell.params[key]) !== JSON.stringify(value))
        issues.add(`${key} ${JSON.stringify(cell.params[key])} (the post's: ${JSON.stringify(value)})`);
    }
  }
  return [...issues];
}
