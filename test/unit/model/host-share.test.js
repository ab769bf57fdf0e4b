// What a sharing load generator takes from a cell's CPUs: the row's loader_shared says whether it shared, where the
// row has it (the runner may keep a server without a cpuset off the loader's CPUs); older rows, from the cpusets.
import { measureTakenCpus } from '../../../runner/model/host-share.js';

const limits = { allowedCpus: 1, hostCpus: 2 };
const run = (extra) => ({ wall_ms: 10000, loader_cpu_ms: 2000, interference_pct: 0, ...extra });

test('a loader that shared counts its CPU time as taken; one kept on CPUs of its own does not, though the cell has no cpuset', () => {
  expect(measureTakenCpus({ cpus: 1 }, [run({ loader_shared: true, loader_cpuset: '' })], limits)).toBeCloseTo(0.2, 9);
  expect(measureTakenCpus({ cpus: 1 }, [run({ loader_shared: false, loader_cpuset: '1' })], limits)).toBe(0);
});

test('rows from before loader_shared are judged by the cpusets, as they were', () => {
  expect(measureTakenCpus({ cpus: 1 }, [run({ loader_cpuset: '1' })], limits)).toBeCloseTo(0.2, 9);
  expect(measureTakenCpus({ cpuset: '0' }, [run({ loader_cpuset: '1' })], limits)).toBe(0);
});
