// The services of a Compose file and the CPU and memory each is given: `deploy.resources.limits.cpus` or `cpus`,
// `deploy.resources.limits.memory` or `mem_limit` (Compose refuses the two forms with different values). A
// reservation is not read: Compose does not cap a container at it.

/** A parsed document is a Compose file when it has a `services:` mapping (and is no Kubernetes object). */
export function isComposeFile(document) {
  return isMapping(document) && isMapping(document.services) && document.kind === undefined;
}

/**
 * @param {object} document  the parsed Compose file
 * @returns {{ object: string, container: string|null, service: string, builds: boolean, image: string|null,
 *   path: string[], cpu: Amount|null, memory: Amount|null }[]}  as kubernetes.js; builds: the service is built from
 *   source (`build:`), not an image of someone else's
 */
export function listComposeServices(document) {
  if (!isComposeFile(document)) return [];
  return Object.entries(document.services)
    .filter(([, service]) => isMapping(service))
    .map(([name, service]) => {
      const amount = (...paths) => {
        for (const path of paths) {
          const value = path.reduce((node, key) => (isMapping(node) ? node[key] : undefined), service);
          if (value !== undefined && value !== null)
            return { path: ['services', name, ...path], field: path.join('.'), value };
        }
        return null;
      };
      return {
        object: `service ${name}`,
        container: typeof service.container_name === 'string' ? service.container_name : null,
        service: name,
        builds: service.build !== undefined && service.build !== null,
        image: typeof service.image === 'string' ? service.image : null,
        path: ['services', name],
        cpu: amount(['deploy', 'resources', 'limits', 'cpus'], ['cpus']),
        memory: amount(['deploy', 'resources', 'limits', 'memory'], ['mem_limit']),
      };
    });
}

function isMapping(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
