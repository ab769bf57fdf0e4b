// One error class for everything that stops a run. run.js prints the message as one line on stderr
// and exits with exitCode, so the runner records a failed run instead of reading half a result.

export const EXIT_CODES = {
  ERR_SPEC_INVALID: 2,
  // The user's module has no such export, or it is not a function: a config error, like a bad spec.
  ERR_EXPORT_INVALID: 2,
  // A server (your start command's) never answered within its bound: the row's status says so (not_ready).
  ERR_SERVER_NOT_READY: 3,
};

export class WorkloadError extends Error {
  /**
   * @param {string} code  ERR_SPEC_INVALID, ERR_ADDON_UNLOADABLE, ERR_TASK_FAILED or ERR_UNIT_EXITED
   * @param {string} message  what went wrong and, where it helps, what to do instead
   * @param {{ cause?: unknown }} [options]
   */
  constructor(code, message, options) {
    super(message, options);
    this.name = 'WorkloadError';
    this.code = code;
    this.exitCode = EXIT_CODES[code] ?? 1;
  }
}
