// What a node pool can run, checked for every cell before the first Job, as config errors with their place in the
// file (exit 2): what Kubernetes cannot express (a quota on a chosen cpuset, CPUs by id without the static CPU
// manager, the `command` workload's cgroup watcher), and what no node of the pool can give (CPUs, memory).
import { parseCpuList } from '../../images/workload/lib/cpuset.js';
import { getWorkload } from '../domain/workloads.js';
import { locateCellValue } from '../plan/slots.js';
import { planPodLoaderLimits } from './executor.js';

/**
 * @param {object} plan
 * @param {{ name: string, allocatable_cpus: number, allocatable_memory_bytes: number, cpu_manager: string }[]} nodes
 * @returns {{ path: Array<string|number>, message: string, hint: string }[]}
 */
export function checkKubernetesCells(plan, nodes) {
  // One problem a place in the file: the first cell it names, and how many more share it.
  const byPlace = new Map();
  for (const cell of plan.cells) {
    const problem = checkCell(cell, nodes, plan.experiment);
    if (!problem) continue;
    const place = JSON.stringify(problem.path);
    if (byPlace.has(place)) byPlace.get(place).more += 1;
    else byPlace.set(place, { ...problem, more: 0 });
  }
  return [...byPlace.values()].map(({ more, ...problem }) =>
    more === 0
      ? problem
      : { ...problem, message: `${problem.message} (and ${more} more cell${more === 1 ? '' : 's'} with this value)` },
  );
}

function checkCell(cell, nodes, experiment) {
  const { cpus, cpuset } = cell.values;
  const describe = `cell ${cell.cell} (${Object.entries(cell.values)
    .map(([axis, value]) => `${axis}=${value}`)
    .join(' ')})`;
  const at = (axis) => locateCellValue(experiment, cell.values, axis);
  const workload = getWorkload(cell.workload);
  if (workload?.external)
    return {
      path: at('workload'),
      message: `${describe}: a \`command\` run is measured by a watcher reading the command's cgroup from beside it, which a pod gets only with host access`,
      hint: 'run command experiments on a Docker engine (leave `kubernetes:` out)',
    };
  if (cpus !== undefined && cpuset !== undefined)
    return {
      path: at('cpuset'),
      message: `${describe}: a pod gets either whole exclusive CPUs (a cpuset, as many as it names) or a CPU limit (cpus), not a quota on chosen CPUs`,
      hint: 'give this cell `cpus` or `cpuset`, not both',
    };
  if (cpuset !== undefined && !nodes.every((node) => node.cpu_manager === 'static'))
    return {
      path: at('cpuset'),
      message: `${describe}: cpuset "${cpuset}" asks for exclusive CPUs, and the node pool's CPU manager is not static (${nodes.map((node) => `${node.name}: ${node.cpu_manager}`).join(', ')})`,
      hint: 'use `cpus` on this pool, or a pool whose kubelets run `cpuManagerPolicy: static` (docs/kubernetes.md)',
    };
  const loaderCpuset = cell.params?.loader?.cpuset;
  if (workload?.serves && loaderCpuset !== undefined && loaderCpuset !== 'auto' && loaderCpuset !== 'none')
    return {
      path: ['experiments', experiment.name, 'params', 'http', 'loader', 'cpuset'],
      message: `${describe}: params.http.loader.cpuset "${loaderCpuset}" names CPUs, which a pod cannot ask for`,
      hint: 'leave it `auto`: the load generator is its own container with its own CPU limit (params.http.loader.cpus)',
    };
  return checkFits(cell, nodes, { describe, at, serves: workload?.serves, experiment });
}

function checkFits(cell, nodes, { describe, at, serves, experiment }) {
  const serverCpus = cell.values.cpuset !== undefined ? parseCpuList(cell.values.cpuset).length : cell.values.cpus;
  const loader = serves ? planPodLoaderLimits({ params: cell.params, limits: cell.limits }) : null;
  const needCpus = (serverCpus ?? 0) + (loader?.cpus ?? 0);
  const needMemory = (cell.limits.memoryBytes ?? 0) + (loader?.memoryBytes ?? 0);
  const mostCpus = Math.max(...nodes.map((node) => node.allocatable_cpus));
  const mostMemory = Math.max(...nodes.map((node) => node.allocatable_memory_bytes));
  const pool = nodes.map((node) => `${node.name}: ${node.allocatable_cpus} CPUs`).join(', ');
  const parts = loader ? ` (the server ${serverCpus ?? 0} + the load generator ${loader.cpus})` : '';
  if (needCpus > mostCpus + 1e-9)
    return {
      path:
        serverCpus === undefined
          ? ['experiments', experiment.name, 'params', 'http', 'loader', 'cpus']
          : at(cell.values.cpuset !== undefined ? 'cpuset' : 'cpus'),
      message: `${describe}: needs ${round(needCpus)} CPUs${parts}, more than any node of the pool can give (allocatable: ${pool})`,
      hint: loader
        ? 'narrow `cpus`, lower params.http.loader.cpus, or choose a node pool with larger nodes'
        : 'narrow `cpus`/`cpuset`, or choose a node pool with larger nodes',
    };
  if (needMemory > mostMemory)
    return {
      path: ['experiments', experiment.name, 'memory'],
      message: `${describe}: needs ${Math.ceil(needMemory / 2 ** 20)} MiB of memory, more than any node of the pool can give`,
      hint: 'lower `memory`, or choose a node pool with larger nodes',
    };
  return undefined;
}

function round(value) {
  return Math.round(value * 1000) / 1000;
}
