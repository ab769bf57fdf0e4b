// Ctrl-C and SIGTERM during `run`. First signal: start no new run, stop and remove the current container, write
// what is whole. Second signal: stop waiting; remove this runner's containers and leave at once. Before the first
// run (engines being prepared): nothing to keep; remove this runner's containers (a cluster's probe Job too, waited
// for) and leave.

export const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 };

/**
 * @param {import('node:stream').Writable} stderr
 * @param {{ stop(): void, preparing: boolean, removeOwnContainers(options?: object): Promise<unknown> }} tracker
 *   api/run.js; options: { wait }
 * @returns {{ signalName: string|null, dispose(): void }}
 */
export function listenForStop(stderr, tracker) {
  const state = { signalName: null };
  const onSignal = async (name) => {
    if (state.signalName || tracker.preparing) {
      const again = state.signalName !== null;
      stderr.write(
        again
          ? `\n${name} again: removing containers and exiting now.\n`
          : `\n${name} while preparing the engines: no run was started; removing this runner's containers and exiting.\n`,
      );
      // A probe pod may run while the engines are prepared: its removal is waited for, unless the signal is a second.
      state.signalName = name;
      await tracker.removeOwnContainers({ wait: !again }).catch(() => {});
      process.exit(SIGNAL_EXIT[name]);
      return;
    }
    state.signalName = name;
    stderr.write(
      `\n${name}: stopping the run in progress and removing its container (press Ctrl-C again to cut the wait short)…\n`,
    );
    tracker.stop();
  };
  const handlers = Object.keys(SIGNAL_EXIT).map((name) => [name, () => onSignal(name)]);
  for (const [name, handler] of handlers) process.on(name, handler);
  state.dispose = () => handlers.forEach(([name, handler]) => process.off(name, handler));
  return state;
}
