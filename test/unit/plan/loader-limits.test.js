import { LOADER_MEMORY_BYTES, planLoaderLimits } from '../../../runner/plan/loader-limits.js';

const hostCpuIds = [0, 1, 2, 3];
const plan = (server, loader = {}) =>
  planLoaderLimits({ server, loader: { cpus: 1, cpuset: 'auto', ...loader }, hostCpuIds });

describe('planLoaderLimits', () => {
  test('auto: a server pinned by the cell leaves the loader CPUs outside its set', () => {
    expect(plan({ nanoCpus: 1e9, cpusetCpus: '0' })).toEqual({
      cpus: 1,
      cpuset: '1',
      nanoCpus: 1e9,
      cpusetCpus: '1',
      memoryBytes: LOADER_MEMORY_BYTES,
    });
    expect(plan({ cpusetCpus: '0,2' }, { cpus: 2 })).toMatchObject({ cpus: 2, cpuset: '1,3' });
    expect(plan({ cpusetCpus: '1-2' }, { cpus: 1.5 })).toMatchObject({ cpus: 1.5, cpuset: '0,3', nanoCpus: 1.5e9 });
  });

  test('auto: a server that is not pinned, or pinned to every CPU, leaves the loader unpinned', () => {
    expect(plan({ nanoCpus: 2e9 })).toMatchObject({ cpus: 1, cpuset: '', cpusetCpus: undefined });
    expect(plan({ cpusetCpus: '0-3' })).toMatchObject({ cpuset: '', cpusetCpus: undefined });
  });

  test('the quota never exceeds the CPUs the loader may run on (Docker would refuse it)', () => {
    expect(plan({ cpusetCpus: '0-2' }, { cpus: 2 })).toMatchObject({ cpus: 1, cpuset: '3', nanoCpus: 1e9 });
    expect(plan({}, { cpus: 8 })).toMatchObject({ cpus: 4, cpuset: '' });
  });

  test('none never pins; a CPU list pins there whatever the server has', () => {
    expect(plan({ cpusetCpus: '0' }, { cpuset: 'none' })).toMatchObject({ cpuset: '', cpusetCpus: undefined });
    expect(plan({ cpusetCpus: '0' }, { cpuset: '2-3', cpus: 2 })).toMatchObject({
      cpus: 2,
      cpuset: '2-3',
      cpusetCpus: '2-3',
    });
  });
});

describe('planLoaderLimits on a slot (--slots)', () => {
  const slot = [4, 5];
  const onSlot = (server, loader = {}) =>
    planLoaderLimits({ server, loader: { cpus: 1, cpuset: 'auto', ...loader }, hostCpuIds: slot, withinSlot: true });

  test("the loader never leaves the slot: unpinned means the slot, a list counts from the slot's first CPU", () => {
    expect(onSlot({ cpusetCpus: '4-5' })).toMatchObject({ cpus: 1, cpuset: '4-5', cpusetCpus: '4-5' });
    expect(onSlot({ cpusetCpus: '4' })).toMatchObject({ cpuset: '5' });
    expect(onSlot({ cpusetCpus: '4' }, { cpuset: 'none' })).toMatchObject({ cpuset: '4-5' });
    expect(onSlot({ cpusetCpus: '4' }, { cpuset: '1' })).toMatchObject({ cpuset: '5' });
  });
});
