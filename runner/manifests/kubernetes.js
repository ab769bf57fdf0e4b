// The containers of a Kubernetes object and the CPU and memory each is given: `resources.limits.cpu`, or
// `requests.cpu` when no limit is set (the pod is scheduled for that much and may get no more when the node is
// busy), and `resources.limits.memory` (past it the container is killed: OOMKilled). Init containers are listed too
// (role `init`): they run to completion before the service starts and serve nothing, so the service's reader leaves
// them out, and says so. Each container's ports and its pod's labels are kept, and a Service's selector and target
// ports read, so that the container that serves can be told from a sidecar (runner/service/deployment.js).

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
 * @returns {{ object: string, container: string, role: 'container'|'init', ports: { port: number, name?: string }[],
 *   labels: object, replicas: number|null, path: (string|number)[], cpu: Amount|null, memory: Amount|null }[]}
 *   Amount: { path, field, value }, path from the document's top; path: the container's own
 */
export function listKubernetesContainers(document, at = []) {
  if (!isKubernetesObject(document)) return [];
  if (document.kind === 'List')
    return (Array.isArray(document.items) ? document.items : []).flatMap((item, index) =>
      listKubernetesContainers(item, [...at, 'items', index]),
    );
  const podPath = POD_SPECS[document.kind] ?? (isMapping(dig(document, TEMPLATE)) ? TEMPLATE : null);
  if (!podPath) return [];
  const object = `${document.kind}/${document.metadata?.name ?? '(no name)'}`;
  // A Pod's own labels; a template's are the pod's (spec.template.metadata.labels).
  const labelsPath = podPath.length === 1 ? ['metadata', 'labels'] : [...podPath.slice(0, -1), 'metadata', 'labels'];
  const labels = isMapping(dig(document, labelsPath)) ? dig(document, labelsPath) : {};
  const replicas = typeof document.spec?.replicas === 'number' ? document.spec.replicas : null;
  return [
    ['containers', 'container'],
    ['initContainers', 'init'],
  ].flatMap(([key, role]) => {
    const containers = dig(document, [...podPath, key]);
    if (!Array.isArray(containers)) return [];
    return containers.filter(isMapping).map((container) => {
      const index = containers.indexOf(container);
      const own = [...at, ...podPath, key, index];
      const amount = (group, name) => {
        const value = dig(container, ['resources', group, name]);
        return value === undefined || value === null
          ? null
          : { path: [...own, 'resources', group, name], field: `${group}.${name}`, value };
      };
      return {
        object,
        container: typeof container.name === 'string' ? container.name : `#${index + 1}`,
        role,
        ports: (Array.isArray(container.ports) ? container.ports : [])
          .filter((port) => isMapping(port) && Number.isInteger(port.containerPort))
          .map((port) => ({ port: port.containerPort, ...(typeof port.name === 'string' ? { name: port.name } : {}) })),
        labels,
        replicas,
        path: own,
        cpu: amount('limits', 'cpu') ?? amount('requests', 'cpu'),
        memory: amount('limits', 'memory'),
      };
    });
  });
}

/**
 * A Service: the pods it selects and the ports it sends to (targetPort, a number or a container port's name; its
 * `port` when it names none).
 * @returns {{ object: string, selector: object, targets: (number|string)[] }|null}
 */
export function readKubernetesService(document) {
  if (!isKubernetesObject(document) || document.kind !== 'Service') return null;
  const selector = isMapping(document.spec?.selector) ? document.spec.selector : {};
  const ports = Array.isArray(document.spec?.ports) ? document.spec.ports.filter(isMapping) : [];
  return {
    object: `Service/${document.metadata?.name ?? '(no name)'}`,
    selector,
    targets: ports.map((port) => port.targetPort ?? port.port).filter((target) => target !== undefined),
  };
}

function dig(object, path) {
  return path.reduce((value, key) => (value === null || typeof value !== 'object' ? undefined : value[key]), object);
}

function isMapping(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
