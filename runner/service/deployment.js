// Which of the containers a service's deployment files describe is the one that serves the app, and so what CPU
// budget and memory limit production gives it. From Kubernetes: the container whose port a Service sends to, or
// the only one of its pod, or the one named (--container); never a sidecar, never an init container — each left
// out with why. Compose only when no Kubernetes manifest was found, or when --from names it: a development Compose
// file's limits are no production budget, and when both exist what was left out is said, with the flag that adds it.
import { combineBudgets, describeSource } from '../manifests/budgets.js';
import { LabError } from '../errors.js';

/**
 * @param {{ files: string[], sources: object[], services: object[] }} deployment  manifests/read-deployment.js's
 * @param {{ container?: string, named?: boolean }} [options]  container: --container; named: the files were named
 *   with --from, so every one of them is read, Compose too
 * @returns {{ serving: object[], leftOut: { source: object, why: string }[], skipped: { files: string[], sources:
 *   object[], flag: string }|null, replicas: { count: number, source: object }|null } & ReturnType<typeof
 *   combineBudgets>}  serving: the containers that serve the app; skipped: Compose files not read for budgets
 * @throws {LabError} ERR_USAGE (exit 2): a pod with several containers and none a Service sends to, or a
 *   --container that names none
 */
export function chooseServingContainers(deployment, { container, named = false } = {}) {
  const kubernetes = deployment.sources.filter((source) => source.format === 'kubernetes');
  const compose = deployment.sources.filter((source) => source.format === 'compose');
  const useCompose = named || kubernetes.length === 0;
  const chosen = [
    ...chooseKubernetes(kubernetes, deployment.services, container),
    ...(useCompose ? chooseCompose(compose, container) : []),
  ];
  const serving = chosen.filter((entry) => !entry.why).map((entry) => entry.source);
  if (container !== undefined && serving.length === 0 && deployment.sources.length > 0)
    throw new LabError('ERR_USAGE', `--container ${container}: no container or Compose service of that name`, {
      hint: `name one of: ${[...new Set(deployment.sources.map((source) => source.service ?? source.container))].join(', ')}`,
    });
  const skippedFiles = useCompose ? [] : [...new Set(compose.map((source) => source.file))];
  const withReplicas = serving.find((source) => Number.isInteger(source.replicas));
  return {
    serving,
    leftOut: chosen.filter((entry) => entry.why),
    skipped:
      skippedFiles.length > 0
        ? {
            files: skippedFiles,
            sources: compose,
            flag: [...skippedFiles, ...new Set(kubernetes.map((source) => source.file))]
              .map((file) => `--from ${file}`)
              .join(' '),
          }
        : null,
    replicas: withReplicas ? { count: withReplicas.replicas, source: withReplicas } : null,
    ...combineBudgets(serving),
  };
}

/** "compose.yaml: service api (cpus 0.5, mem_limit 256m)", for what was left out. */
export function describeLeftOut(source) {
  const amounts = [source.cpu, source.memory].filter(Boolean).map((amount) => `${amount.field} ${amount.written}`);
  return `${describeSource(source)}${amounts.length > 0 ? ` (${amounts.join(', ')})` : ''}`;
}

function chooseKubernetes(sources, services, named) {
  const objects = groupBy(sources, (source) => `${source.file}\u0000${source.object}`);
  return objects.flatMap((own) => {
    const init = own
      .filter((source) => source.role === 'init')
      .map((source) => ({
        source,
        why: 'an init container: it runs to completion before the service starts and serves no request',
      }));
    const containers = own.filter((source) => source.role !== 'init');
    return [...init, ...chooseInPod(containers, services, named)];
  });
}

function chooseInPod(containers, services, named) {
  if (named !== undefined)
    return containers.map((source) =>
      source.container === named ? { source } : { source, why: `not the container named by --container ${named}` },
    );
  const targeted = containers
    .map((source) => ({ source, by: findTargetingService(source, services) }))
    .filter((entry) => entry.by);
  if (targeted.length > 0)
    return containers.map((source) => {
      const entry = targeted.find((each) => each.source === source);
      if (entry) return { source, by: entry.by };
      const by = targeted[0].by;
      return {
        source,
        why: `a sidecar: ${by.service.object} sends to port ${by.target} of container ${targeted[0].source.container}, none to this one`,
      };
    });
  if (containers.length <= 1) return containers.map((source) => ({ source }));
  const [first] = containers;
  throw new LabError(
    'ERR_USAGE',
    `${first.file}: ${first.object} has ${containers.length} containers (${containers.map((source) => source.container).join(', ')}) and no Service in the files read sends to a port of one of them, so which one serves your app is not known`,
    {
      hint: `name it: init --container ${first.container} (or add the Service's manifest with --from FILE)`,
    },
  );
}

// A Service whose selector picks this pod (every label it names, and at least one) and whose target port is one of
// the container's (by number, or by the port's name).
function findTargetingService(source, services) {
  for (const service of services) {
    const selects =
      Object.keys(service.selector).length > 0 &&
      Object.entries(service.selector).every(([key, value]) => source.labels?.[key] === value);
    if (!selects) continue;
    const target = service.targets.find((each) =>
      (source.ports ?? []).some((port) => port.port === each || port.name === each),
    );
    if (target !== undefined) return { service, target };
  }
  return null;
}

function chooseCompose(sources, named) {
  if (sources.length === 0) return [];
  if (named !== undefined)
    return sources.map((source) =>
      source.service === named || source.container === named
        ? { source }
        : { source, why: `not the service named by --container ${named}` },
    );
  const built = sources.filter((source) => source.builds);
  const serving = built.length > 0 ? built : sources.length === 1 ? sources : [];
  if (serving.length !== 1) {
    throw new LabError(
      'ERR_USAGE',
      `${sources[0].file}: ${serving.length > 1 ? `${serving.length} services are built from source (${serving.map((source) => source.service).join(', ')})` : `${sources.length} services and none is built from source`}, so which one serves your app is not known`,
      { hint: `name it: init --container ${(serving[0] ?? sources[0]).service}` },
    );
  }
  return sources.map((source) =>
    source === serving[0]
      ? { source }
      : {
          source,
          why: `another service (${source.image ? `image ${source.image}` : 'no image'}): not built from your code`,
        },
  );
}

function groupBy(items, key) {
  const groups = new Map();
  for (const item of items) {
    const k = key(item);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(item);
  }
  return [...groups.values()];
}
