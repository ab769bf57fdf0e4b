import path from 'node:path';
import { getCacheDir } from '../../../../../runner/docker/images/rootfs/cache-dir.js';
import { LAB_USER, addUserEntries } from '../../../../../runner/docker/images/rootfs/lab-user.js';

const passwd = 'root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n';
const group = 'root:x:0:\nnogroup:x:65534:\n';

test('addUserEntries appends the lab user and group with ids 1000', () => {
  const updated = addUserEntries({ passwd, group });
  expect(updated.passwd).toBe(`${passwd}lab:x:1000:1000:node-threads-lab:/home/lab:/bin/sh\n`);
  expect(updated.group).toBe(`${group}lab:x:1000:\n`);
  expect(LAB_USER).toMatchObject({ uid: 1000, gid: 1000 });
});

test('addUserEntries leaves files alone when the ids exist, and copes with a missing final newline', () => {
  const taken = addUserEntries({ passwd: `${passwd}me:x:1000:1000::/home/me:/bin/sh\n`, group: 'me:x:1000:' });
  expect(taken.passwd).toBe(`${passwd}me:x:1000:1000::/home/me:/bin/sh\n`);
  expect(taken.group).toBe('me:x:1000:');
  expect(addUserEntries({ passwd: 'root:x:0:0::/root:/bin/sh', group: 'root:x:0:' }).group).toBe(
    'root:x:0:\nlab:x:1000:\n',
  );
});

test('getCacheDir follows XDG_CACHE_HOME, else ~/.cache', () => {
  expect(getCacheDir({ XDG_CACHE_HOME: '/var/cache/me' })).toBe('/var/cache/me/node-threads-lab');
  expect(getCacheDir({})).toMatch(new RegExp(`${path.sep}\\.cache${path.sep}node-threads-lab$`));
});
