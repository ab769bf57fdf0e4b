import {
  NODE_VERSIONS,
  lookupNodeVersion,
  pickNewestVersion,
  resolveNodeVersion,
} from '../../../../../runner/docker/images/rootfs/node-versions.js';

const table = { 22: '22.23.3', 24: '24.21.0' };

test('the pinned table has full versions of the supported majors', () => {
  for (const major of ['20', '22', '24', '26']) {
    expect(NODE_VERSIONS[major]).toMatch(new RegExp(`^${major}\\.\\d+\\.\\d+$`));
  }
});

test('lookupNodeVersion accepts a number or a string, and knows nothing else', () => {
  expect(lookupNodeVersion(24, table)).toBe('24.21.0');
  expect(lookupNodeVersion('22', table)).toBe('22.23.3');
  expect(lookupNodeVersion(23, table)).toBeUndefined();
});

test('pickNewestVersion compares numerically, not as text', () => {
  expect(pickNewestVersion(['24.9.0', '24.21.0', '24.10.1', '24.2.0'])).toBe('24.21.0');
  expect(pickNewestVersion(['20.9.0', 'not-a-version'])).toBe('20.9.0');
  expect(pickNewestVersion([])).toBeUndefined();
});

describe('resolveNodeVersion', () => {
  test('prefers the pinned version and does not ask npm', async () => {
    const viewVersions = async () => {
      throw new Error('npm must not be asked');
    };
    await expect(resolveNodeVersion(24, { table, viewVersions })).resolves.toBe('24.21.0');
  });

  test('resolves an unpinned major to the newest release on npm', async () => {
    const viewVersions = async (major) => (major === 23 ? ['23.2.0', '23.11.1', '23.10.0'] : []);
    await expect(resolveNodeVersion(23, { table, viewVersions })).resolves.toBe('23.11.1');
  });

  test('says which majors exist when npm has none', async () => {
    await expect(resolveNodeVersion(99, { table, viewVersions: async () => [] })).rejects.toMatchObject({
      code: 'ERR_IMAGE_BUILD',
      hint: expect.stringContaining('22, 24'),
    });
  });

  test('rejects something that is not a major', async () => {
    await expect(resolveNodeVersion('24.1', { table })).rejects.toMatchObject({ code: 'ERR_IMAGE_BUILD' });
    await expect(resolveNodeVersion(0, { table })).rejects.toMatchObject({ code: 'ERR_IMAGE_BUILD' });
  });
});
