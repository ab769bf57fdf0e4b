import { LOADER_MEMORY_BYTES, planLoaderLimits } from '../../../runner/plan/loader-limits.js';

const hostCpuIds = [0, 1, 2, 3];
const plan = (server, loader = {}, options = {}) =>
  planLoaderLimits({ server, loader: { cpus: 1, cpuset: 'auto', ...loader }, hostCpuIds, ...options });

describe('planLoaderLimits', () => {
  test('auto: a server pinned by the cell leaves the loader CPUs outside its set', () => {
    expect(plan({ nanoCpus: 1e9, cpusetCpus: '0' })).toEqual({
      cpus: 1,
      cpuset: '1',
      nanoCpus: 1e9,
      cpusetCpus: '1',
      memoryBytes: LOADER_MEMORY_BYTES,
      shared: false,
    });
    expect(plan({ cpusetCpus: '0,2' }, { cpus: 2 })).toMatchObject({ cpus: 2, cpuset: '1,3', shared: false });
    expect(plan({ cpusetCpus: '1-2' }, { cpus: 1.5 })).toMatchObject({ cpus: 1.5, cpuset: '0,3', nanoCpus: 1.5e9 });
  });

  test('auto: a server with a quota and CPUs to spare beyond it keeps the loader on the last ones, and is kept off them', () => {
    // cpus 2 needs 2 of the 4 CPUs: the loader gets CPU 3, the server 0-2 (its quota unchanged).
    expect(plan({ nanoCpus: 2e9 })).toMatchObject({ cpus: 1, cpuset: '3', shared: false, serverCpusetCpus: '0-2' });
    // cpus 1.5 needs 2; a 2-CPU loader gets the 2 spare ones.
    expect(plan({ nanoCpus: 1.5e9 }, { cpus: 2 })).toMatchObject({ cpuset: '2-3', serverCpusetCpus: '0-1' });
    // On 2 CPUs, cpus 1 leaves one: the loader's.
    expect(
      planLoaderLimits({ server: { nanoCpus: 1e9 }, loader: { cpus: 1, cpuset: 'auto' }, hostCpuIds: [0, 1] }),
    ).toMatchObject({ cpuset: '1', serverCpusetCpus: '0', shared: false });
  });

  test('auto: no CPU to spare (a budget of every CPU, no quota, or a cpuset of every CPU): shared, unpinned, the server untouched', () => {
    expect(plan({ nanoCpus: 4e9 })).toEqual(
      expect.objectContaining({ cpuset: '', cpusetCpus: undefined, shared: true }),
    );
    expect(plan({ nanoCpus: 3.5e9 })).toMatchObject({ cpuset: '', shared: true });
    expect(plan({})).toMatchObject({ cpuset: '', shared: true });
    expect(plan({ cpusetCpus: '0-3' })).toMatchObject({ cpuset: '', cpusetCpus: undefined, shared: true });
    expect(plan({ nanoCpus: 4e9 }).serverCpusetCpus).toBeUndefined();
  });

  test('the quota never exceeds the CPUs the loader may run on (Docker would refuse it)', () => {
    expect(plan({ cpusetCpus: '0-2' }, { cpus: 2 })).toMatchObject({ cpus: 1, cpuset: '3', nanoCpus: 1e9 });
    expect(plan({}, { cpus: 8 })).toMatchObject({ cpus: 4, cpuset: '' });
  });

  test('none never pins (shared); a CPU list pins there whatever the server has, shared where it overlaps', () => {
    expect(plan({ cpusetCpus: '0' }, { cpuset: 'none' })).toMatchObject({
      cpuset: '',
      cpusetCpus: undefined,
      shared: true,
    });
    expect(plan({ cpusetCpus: '0' }, { cpuset: '2-3', cpus: 2 })).toMatchObject({
      cpus: 2,
      cpuset: '2-3',
      cpusetCpus: '2-3',
      shared: false,
    });
    expect(plan({ nanoCpus: 1e9 }, { cpuset: '3' })).toMatchObject({ cpuset: '3', shared: true });
    expect(plan({ nanoCpus: 1e9 }, { cpuset: '3' }).serverCpusetCpus).toBeUndefined();
  });
});

describe('planLoaderLimits on a slot (--slots)', () => {
  const slot = [4, 5];
  const onSlot = (server, loader = {}, options = {}) =>
    planLoaderLimits({
      server,
      loader: { cpus: 1, cpuset: 'auto', ...loader },
      hostCpuIds: slot,
      withinSlot: true,
      ...options,
    });

  test("the loader never leaves the slot: unpinned means the slot, a list counts from the slot's first CPU", () => {
    expect(onSlot({ cpusetCpus: '4-5' })).toMatchObject({ cpus: 1, cpuset: '4-5', cpusetCpus: '4-5', shared: true });
    expect(onSlot({ cpusetCpus: '4' })).toMatchObject({ cpuset: '5', shared: false });
    expect(onSlot({ cpusetCpus: '4' }, { cpuset: 'none' })).toMatchObject({ cpuset: '4-5', shared: true });
    expect(onSlot({ cpusetCpus: '4' }, { cpuset: '1' })).toMatchObject({ cpuset: '5' });
  });

  test('a cell that does not pin its server, placed on the whole slot: with a quota to spare, the slot is split', () => {
    expect(onSlot({ nanoCpus: 1e9, cpusetCpus: '4-5' }, {}, { pinnedByCell: false })).toMatchObject({
      cpuset: '5',
      serverCpusetCpus: '4',
      shared: false,
    });
    // A cell that pinned the whole slot itself keeps it; the loader shares.
    expect(onSlot({ nanoCpus: 1e9, cpusetCpus: '4-5' }, {}, { pinnedByCell: true })).toMatchObject({
      cpuset: '4-5',
      shared: true,
    });
  });
});
