import { formatCpuIds, listCpuIds, parseCpuset } from '../../../images/workload/lib/cpuset.js';
import { readHost } from '../../../runner/config/host.js';
import { parseMemoryBytes } from '../../../runner/domain/memory.js';
import { formatPath } from '../../../runner/config/diagnostics/paths.js';
import { suggestName } from '../../../images/workload/lib/suggest.js';

test('suggestName finds typos and truncations, and nothing for unrelated words', () => {
  const axes = ['cpus', 'cpuset', 'uv_threadpool_size', 'workers', 'cluster', 'workload', 'node'];
  expect(suggestName('repetition', ['repetitions', 'timeout'])).toBe('repetitions');
  expect(suggestName('uv_threadpool', axes)).toBe('uv_threadpool_size');
  expect(suggestName('wokrers', axes)).toBe('workers');
  expect(suggestName('cpu', axes)).toBe('cpus');
  expect(suggestName('threads', axes)).toBeUndefined();
  expect(suggestName('node_options', axes)).toBeUndefined();
  expect(suggestName('c', axes)).toBeUndefined();
});

test('cpusets parse, list and format', () => {
  expect(parseCpuset('0-1,3')).toEqual([
    { text: '0-1', from: 0, to: 1 },
    { text: '3', from: 3, to: 3 },
  ]);
  expect(parseCpuset(2)).toEqual([{ text: '2', from: 2, to: 2 }]);
  expect(parseCpuset('0-1\n')).toHaveLength(1);
  expect(parseCpuset('0..1')).toBeUndefined();
  expect(listCpuIds(parseCpuset('0-2,1,5'))).toEqual([0, 1, 2, 5]);
  expect(formatCpuIds([5, 0, 1, 2, 7])).toBe('0-2,5,7');
});

test('readHost describes this machine', () => {
  const host = readHost();
  expect(host.cpus).toBeGreaterThan(0);
  expect(host.cpuIds.length).toBeGreaterThan(0);
  expect(host.cpuIds.every(Number.isInteger)).toBe(true);
});

test('parseMemoryBytes reads Docker notation only', () => {
  expect(parseMemoryBytes('1g')).toBe(1024 ** 3);
  expect(parseMemoryBytes('0.5k')).toBe(512);
  expect(parseMemoryBytes('lots')).toBeUndefined();
  expect(parseMemoryBytes('1gb')).toBeUndefined();
  expect(parseMemoryBytes(512)).toBeUndefined();
});

test('formatPath quotes names that would be ambiguous', () => {
  expect(formatPath(['experiments', 'pool-vs-cores', 'matrix', 'cpus', 2])).toBe(
    'experiments.pool-vs-cores.matrix.cpus[2]',
  );
  expect(formatPath(['experiments', 'a/b'])).toBe('experiments["a/b"]');
  expect(formatPath(['experiments', 'v1.2', 'env', 'NODE_OPTIONS'])).toBe('experiments["v1.2"].env.NODE_OPTIONS');
});
