// The processes an integration test file starts through the helpers (runCli, typeLine, …), while they run.
const running = new Set();

/** Remembers a started execa child until it ends; returns it. */
export function track(child) {
  running.add(child);
  const forget = () => running.delete(child);
  child.then(forget, forget);
  return child;
}

/**
 * Stops every child still running: SIGTERM, which a runner answers by removing its containers (execa sends SIGKILL
 * 5 s later if it has not ended), and waits for them.
 */
export async function stopChildren() {
  const left = [...running];
  for (const child of left) child.kill('SIGTERM');
  await Promise.allSettled(left);
}
