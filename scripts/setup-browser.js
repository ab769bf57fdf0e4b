// Runs before the tests (`npm test`): the browser test opens report.html in Debian's Chromium, so make
// sure /usr/bin/chromium exists, installing it with apt-get when run as root on Debian. Prints one line.
import { existsSync } from 'node:fs';
import { execa } from 'execa';

export const CHROMIUM = '/usr/bin/chromium';

async function aptInstall() {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    execa('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { env, reject: false });
  let result = await install();
  // A fresh machine has no package lists yet; fetch them once and try again.
  if (result.exitCode !== 0) {
    await execa('apt-get', ['update'], { env, reject: false });
    result = await install();
  }
  return result;
}

if (existsSync(CHROMIUM)) {
  console.log(`Chromium present at ${CHROMIUM}`);
} else if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
  console.log(
    `Chromium missing at ${CHROMIUM}: install Debian's chromium package (apt-get install chromium) as root; the browser test will fail without it`,
  );
} else {
  const result = await aptInstall();
  console.log(
    existsSync(CHROMIUM)
      ? `Chromium installed at ${CHROMIUM} (apt-get install chromium)`
      : `Chromium could not be installed (apt-get exit ${result.exitCode}): ${result.stderr.trim().split('\n').at(-1) ?? ''}; the browser test will fail without it`,
  );
}
