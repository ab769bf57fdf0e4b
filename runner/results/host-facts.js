// What machine and software a results folder was measured on, from its run.json: the engines' own facts (read from
// each engine: its CPU model, CPU count, kernel), else the runner's machine (folders from before engines were
// recorded), and the images' Node.js versions and tags. `compare` reads them to tell when two folders come from
// different hosts, where a change may be the host's rather than the one being judged.

/** The facts compared, in the order they are told; `label` is how the text names each. */
export const HOST_FACTS = [
  { fact: 'cpu_model', label: 'CPU model' },
  { fact: 'cpus', label: 'CPU count' },
  { fact: 'kernel', label: 'kernel' },
  // A Kubernetes node pool (its node selector): two pools of the same hardware are still two hosts.
  { fact: 'pool', label: 'node pool' },
  { fact: 'node', label: 'Node.js' },
  { fact: 'image', label: 'image' },
];

// With --match-on, the axis compared is meant to differ, and so are the facts that come with it.
const MEANT_TO_DIFFER = { node: ['node', 'image'], engine: ['cpu_model', 'cpus', 'kernel', 'pool'] };

/**
 * @param {object|null} info  run.json
 * @param {object[]} [runs]   runs.csv's rows, for the Node.js version of folders that recorded no image
 * @returns {{ cpu_model: string|null, cpus: number|string|null, kernel: string|null, pool: string|null,
 *   node: string|null, image: string|null }}  several engines or images: their distinct values, joined by ", ";
 *   null: not recorded
 */
export function readHostFacts(info, runs = []) {
  const engines = Array.isArray(info?.engines) && info.engines.length > 0 ? info.engines : null;
  const machine = (fact) =>
    engines ? joinDistinct(engines.map((engine) => engine[fact])) : (info?.host?.[fact] ?? null);
  const images = Object.values(info?.images ?? {});
  return {
    cpu_model: machine('cpu_model'),
    cpus: machine('cpus'),
    kernel: machine('kernel'),
    // The node pool of a folder measured on Kubernetes (`any node` without a selector); null on Docker.
    pool: info?.kubernetes ? formatPool(info.kubernetes) : null,
    node:
      joinDistinct(images.map((image) => image.nodeVersion ?? image.node_version)) ??
      joinDistinct(runs.map((row) => row.node_version)),
    image: joinDistinct(images.map((image) => image.tag)),
  };
}

/**
 * The facts in which two folders differ, each known on both sides; with `matchOn` (compare --match-on), not those
 * that axis is meant to change.
 * @returns {{ fact: string, label: string, a: unknown, b: unknown }[]}
 */
export function findHostDifferences(factsA, factsB, { matchOn } = {}) {
  const meant = new Set(MEANT_TO_DIFFER[matchOn] ?? []);
  return HOST_FACTS.filter(({ fact }) => !meant.has(fact))
    .filter(
      ({ fact }) => factsA[fact] !== null && factsB[fact] !== null && String(factsA[fact]) !== String(factsB[fact]),
    )
    .map(({ fact, label }) => ({ fact, label, a: factsA[fact], b: factsB[fact] }));
}

function formatPool({ context, node_pool: pool = {} }) {
  const selector = Object.entries(pool)
    .map(([key, value]) => `${key}=${value}`)
    .join(',');
  return `${context}: ${selector || 'any node'}`;
}

function joinDistinct(values) {
  const known = [...new Set(values.filter((value) => value !== null && value !== undefined && value !== ''))];
  if (known.length === 0) return null;
  return known.length === 1 ? known[0] : known.map(String).sort().join(', ');
}
