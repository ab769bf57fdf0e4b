// The containers read from deployment files → the experiment's CPU budgets and memory limit. One budget per CPU
// amount, however many containers have it (each named as a source). One memory limit for the experiment: the
// smallest any of them sets, so that a setting the advice recommends fits every place the service runs; a setting
// that needs more dies as it would there (an `oom` row), and is never recommended.

/**
 * @param {import('./read-manifest.js').ManifestSource[]} sources
 * @returns {{ budgets: { cpus: number, sources: object[] }[], memory: { docker: string, bytes: number,
 *   sources: object[], others: object[], unlimited: object[] }|null, without: object[] }}
 *   budgets: ascending; memory: the smallest limit with the sources that set it, the larger ones (others) and the
 *   budgets' containers that set none (unlimited); without: containers with no CPU limit or request
 */
export function combineBudgets(sources) {
  const budgets = [];
  for (const source of sources.filter((each) => each.cpu)) {
    const same = budgets.find((budget) => budget.cpus === source.cpu.cpus);
    if (same) same.sources.push(source);
    else budgets.push({ cpus: source.cpu.cpus, sources: [source] });
  }
  budgets.sort((a, b) => a.cpus - b.cpus);
  return { budgets, memory: chooseMemory(sources), without: sources.filter((source) => !source.cpu) };
}

// The containers that are budgets come first: a sidecar's memory limit (a log shipper's 64Mi) is no limit of the
// service's, unless no budget's container sets one.
function chooseMemory(sources) {
  const budgeted = sources.filter((source) => source.cpu);
  const pool = budgeted.some((source) => source.memory) ? budgeted : sources;
  const limited = pool.filter((source) => source.memory);
  if (limited.length === 0) return null;
  const bytes = Math.min(...limited.map((source) => source.memory.bytes));
  const smallest = limited.filter((source) => source.memory.bytes === bytes);
  return {
    docker: smallest[0].memory.docker,
    bytes,
    sources: smallest,
    others: limited.filter((source) => source.memory.bytes !== bytes),
    unlimited: pool.filter((source) => !source.memory),
  };
}

/** "k8s/deployment.yaml: Deployment/api, container api" / "compose.yaml: service api" */
export function describeSource(source) {
  const container =
    source.format === 'kubernetes'
      ? `, container ${source.container}`
      : source.container
        ? ` (${source.container})`
        : '';
  return `${source.file}: ${source.object}${container}`;
}
