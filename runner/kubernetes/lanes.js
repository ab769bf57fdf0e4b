// How many runs go at once on a node pool: as many as asked (`kubernetes.lanes`, default 1: runs beside each other on
// one node disturb each other, as --slots does on Docker), at most as many of the largest cell as the pool's nodes
// can hold side by side (allocatable CPUs), and at most what the namespace's ResourceQuotas leave. The reason goes
// with the number: the progress lines and run.json say which bound decided.
import { parseCpuList } from '../../images/workload/lib/cpuset.js';
import { getWorkload } from '../domain/workloads.js';
import { parseKubernetesQuantity } from '../manifests/quantities.js';
import { planPodLoaderLimits } from './executor.js';

/** The namespace's ResourceQuotas (hard and used), [] where it has none. */
export async function readQuotas(cluster) {
  const list = await cluster.call('list ResourceQuotas', () =>
    cluster.core.listNamespacedResourceQuota({ namespace: cluster.namespace }),
  );
  return list.items.map((quota) => ({
    name: quota.metadata.name,
    hard: quota.status?.hard ?? quota.spec?.hard ?? {},
    used: quota.status?.used ?? {},
  }));
}

/**
 * @param {{ wanted?: number, nodes: object[], plans: object[], quotas?: object[] }} input
 * @returns {{ count: number, why: string }}
 */
export function countLanes({ wanted = 1, nodes, plans, quotas = [] }) {
  const cells = plans.flatMap((plan) => plan.cells);
  const cpus = Math.max(0.001, ...cells.map(countCellCpus));
  const memory = Math.max(1, ...cells.map(countCellMemory));
  const bounds = [{ count: wanted, why: `kubernetes.lanes is ${wanted}` }];
  const fit = nodes.reduce((sum, node) => sum + Math.floor(node.allocatable_cpus / cpus + 1e-9), 0);
  bounds.push({ count: fit, why: `the pool's allocatable CPUs hold ${fit} of the largest cell (${round(cpus)} CPUs)` });
  for (const quota of quotas) {
    const left = (key, need) => {
      const hard = parseKubernetesQuantity(quota.hard[key]);
      if (hard === undefined) return undefined;
      return Math.floor((hard - (parseKubernetesQuantity(quota.used[key]) ?? 0)) / need + 1e-9);
    };
    const limits = [
      ['requests.cpu', cpus],
      ['limits.cpu', cpus],
      ['cpu', cpus],
      ['requests.memory', memory],
      ['limits.memory', memory],
      ['memory', memory],
      ['pods', 1],
      ['count/jobs.batch', 1],
    ];
    for (const [key, need] of limits) {
      const count = left(key, need);
      if (count !== undefined) bounds.push({ count, why: `ResourceQuota ${quota.name} leaves ${key} for ${count}` });
    }
  }
  const tightest = bounds.reduce((least, bound) => (bound.count < least.count ? bound : least));
  return { count: Math.max(1, tightest.count), why: tightest.why };
}

/** CPUs a cell's pod asks for: its cpuset's count or its cpus, and an http run's load generator. */
export function countCellCpus(cell) {
  const own = cell.values.cpuset !== undefined ? parseCpuList(cell.values.cpuset).length : (cell.values.cpus ?? 0);
  return own + (getWorkload(cell.workload)?.serves ? planPodLoaderLimits(cell).cpus : 0);
}

function countCellMemory(cell) {
  return (
    (cell.limits.memoryBytes ?? 0) + (getWorkload(cell.workload)?.serves ? planPodLoaderLimits(cell).memoryBytes : 0)
  );
}

function round(value) {
  return Math.round(value * 1000) / 1000;
}
