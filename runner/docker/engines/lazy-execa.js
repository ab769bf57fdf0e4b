// execa costs tens of milliseconds to import, and only set-up paths (apt-get, dockerd, npm,
// debootstrap, git) need it: loading it on first use keeps it off the way to the first container.
// Awaiting here resolves the subprocess to its result, so use it only where the result is awaited.
export async function execa(...args) {
  const { execa: run } = await import('execa');
  return run(...args);
}
