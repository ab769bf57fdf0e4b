// What a key path points at, so messages and hints can speak of "the matrix" or "an include entry".

/**
 * ['experiments', 'pool', 'matrix', 'cpus', 1] → { kind: 'axis', axis: 'cpus' }
 * kinds: root, experiments, experiment, setting, matrix, axis, env, env-value, entries, entry, entry-value,
 * params, workload-params, param, claim-key
 */
export function classifyPath(path) {
  const [, name, section, first, second] = path;
  if (path.length === 0) return { kind: 'root' };
  if (path.length === 1) return { kind: 'experiments' };
  if (path.length === 2) return { kind: 'experiment', name };
  if (section === 'matrix') return path.length === 3 ? { kind: 'matrix' } : { kind: 'axis', axis: first };
  if (section === 'env') return path.length === 3 ? { kind: 'env' } : { kind: 'env-value', variable: first };
  if (section === 'include' || section === 'exclude') {
    if (path.length === 3) return { kind: 'entries', list: section };
    return path.length === 4 ? { kind: 'entry', list: section } : { kind: 'entry-value', list: section, axis: second };
  }
  if (section === 'params') {
    if (path.length === 3) return { kind: 'params' };
    return path.length === 4
      ? { kind: 'workload-params', workload: first }
      : { kind: 'param', workload: first, param: second };
  }
  // experiments.NAME.claims[i].KEY: one key of one claim.
  if (section === 'claims' && path.length === 5) return { kind: 'claim-key', key: second };
  return { kind: 'setting', key: section };
}
