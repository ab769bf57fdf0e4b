// Workload containers run as 1000:1000. Giving that id a name and a home keeps tools that look the
// user up (os.userInfo(), npm, a shell prompt) from failing inside the container.
import { chown, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const LAB_USER = { name: 'lab', uid: 1000, gid: 1000, home: '/home/lab', shell: '/bin/sh' };

/** New /etc/passwd and /etc/group texts with the user added; unchanged when the ids are taken already. */
export function addUserEntries({ passwd, group }, user = LAB_USER) {
  const hasId = (text, id) => text.split('\n').some((line) => line.split(':')[2] === String(id));
  const append = (text, line) => `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${line}\n`;
  return {
    passwd: hasId(passwd, user.uid)
      ? passwd
      : append(passwd, `${user.name}:x:${user.uid}:${user.gid}:node-threads-lab:${user.home}:${user.shell}`),
    group: hasId(group, user.gid) ? group : append(group, `${user.name}:x:${user.gid}:`),
  };
}

/** Add the user to the root filesystem at `rootfs`, with a home directory it owns. */
export async function addLabUser(rootfs, user = LAB_USER) {
  const files = { passwd: path.join(rootfs, 'etc/passwd'), group: path.join(rootfs, 'etc/group') };
  const updated = addUserEntries(
    {
      passwd: await readFile(files.passwd, 'utf8'),
      group: await readFile(files.group, 'utf8'),
    },
    user,
  );
  await writeFile(files.passwd, updated.passwd);
  await writeFile(files.group, updated.group);
  const home = path.join(rootfs, user.home);
  await mkdir(home, { recursive: true, mode: 0o755 });
  await chown(home, user.uid, user.gid);
}
