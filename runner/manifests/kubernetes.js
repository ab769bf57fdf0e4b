// The containers of a Kubernetes object and the CPU and memory each is given: `resources.limits.cpu`, or
// `requests.cpu` when no limit is set (the pod is scheduled for that much and may get no more when the node is
// busy), and `resources.limits.memory` (past it the container is killed: OOMKilled). Only `containers`: init
// containers run to completion before the service starts, and do not serve.

// Where each kind keeps its pod spec. Any other kind with a pod template at spec.template.spec (ReplicaSet, an Argo
// Rollout) is read the same way; a `List` (kubectl get -o yaml) is read item by item.
const POD_SPECS = {
  Pod: ['spec'],
  Deployment: ['spec', 'template', 'spec'],
  StatefulSet: ['spec', 'template', 'spec'],
  DaemonSet: ['spec', 'template', 'spec'],
  Job: ['spec', 'template', 'spec'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
};
const TEMPLATE = ['spec', 'template', 'spec'];

/** A parsed document is a Kubernetes object when it says its kind and apiVersion. */
export function isKubernetesObject(document) {
  return isMapping(document) && typeof document.kind === 'string' && typeof document.apiVersion === 'string';
}

/**
 * @param {object} document  one parsed YAML document
 * @returns {{ object: string, container: string, cpu: Amount|null, memory: Amount|null }[]}  Amount: { path, field,
 *   value }, path from the document's top
 */
export function listKubernetesContainers(document, at = []) {
  if (!isKubernetesObject(document)) return [];
  if (document.kind === 'List')
    return (Array.isArray(document.items) ? document.items : []).flatMap((item, index) =>
      listKubernetesContainers(item, [...at, 'items', index]),
    );
  const podPath = POD_SPECS[document.kind] ?? (isMapping(dig(document, TEMPLATE)) ? TEMPLATE : null);
  const containers = podPath && dig(document, [...podPath, 'containers']);
  if (!Array.isArray(containers)) return [];
  const object = `${document.kind}/${document.metadata?.name ?? '(no name)'}`;
  return containers.filter(isMapping).map((container) => {
    const index = containers.indexOf(container);
    const resources = [...at, ...podPath, 'containers', index, 'resources'];
    const amount = (group, name) => {
      const value = dig(container, ['resources', group, name]);
      return value === undefined || value === null
        ? null
        : { path: [...resources, group, name], field: `${group}.${name}`, value };
    };
    return {
      object,
      container: typeof container.name === 'string' ? container.name : `#${index + 1}`,
      cpu: amount('limits', 'cpu') ?? amount('requests', 'cpu'),
      memory: amount('limits', 'memory'),
    };
  });
}

function dig(object, path) {
  return path.reduce((value, key) => (value === null || typeof value !== 'object' ? undefined : value[key]), object);
}

function isMapping(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
