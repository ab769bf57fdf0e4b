// One error class for everything the runner reports to a person. cli.js prints it once and exits
// with its exitCode; every other module throws it with enough context to say what to do next.

const EXIT_CODES = {
  ERR_CONFIG_INVALID: 2,
  ERR_CONFIG_UNREADABLE: 2,
  ERR_USAGE: 2,
  ERR_OUTPUT_UNWRITABLE: 2,
  ERR_FILE_EXISTS: 2,
  // init: a Kubernetes manifest or Compose file that cannot be read as one.
  ERR_MANIFEST_INVALID: 2,
  ERR_DOCKER_UNREACHABLE: 2,
  ERR_IMAGE_BUILD: 2,
  ERR_IMAGE_UNAVAILABLE: 2,
  ERR_PREFLIGHT: 2,
  ERR_RESUME_MISMATCH: 2,
  // compare's gate across folders measured on different hosts, without --allow-different-hosts.
  ERR_HOSTS_DIFFER: 2,
  // A results folder that cannot be read as written: corrupt run.json, a ragged or cut-short row, a wrong type.
  ERR_RESULTS_DAMAGED: 2,
  // A results folder written by a newer version of the format (run.json format_version).
  ERR_RESULTS_VERSION: 2,
  // A results file could not be written mid-matrix (a full disk): rows so far kept, resumable.
  ERR_RESULTS_WRITE: 4,
};

export class LabError extends Error {
  /**
   * @param {string} code     e.g. ERR_CONFIG_INVALID
   * @param {string} message  what is wrong, in one sentence
   * @param {object} [context]
   * @param {string} [context.hint]    what to do or write instead
   * @param {string} [context.file]    config file the error is about
   * @param {number} [context.line]    1-based
   * @param {number} [context.column]  1-based
   * @param {string} [context.path]    key path such as experiments.pool.matrix.cpus[2]
   * @param {unknown} [context.cause]
   */
  constructor(code, message, context = {}) {
    const { cause, ...rest } = context;
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'LabError';
    this.code = code;
    this.exitCode = EXIT_CODES[code] ?? 1;
    Object.assign(this, rest);
  }

  /** `file:line:column: path: message\n  hint` — the form editors and terminals turn into links. */
  format() {
    const where = [this.file, this.line, this.column].filter((part) => part !== undefined).join(':');
    const head = [where, this.path].filter(Boolean).join(': ');
    const lines = [head ? `${head}: ${this.message}` : this.message];
    if (this.hint) lines.push(`  ${this.hint}`);
    return lines.join('\n');
  }
}

/** Several config errors at once: the person fixes them all in one edit. */
export class LabErrors extends LabError {
  constructor(errors) {
    super(errors[0].code, errors.map((error) => error.format()).join('\n'));
    this.errors = errors;
  }

  format() {
    return this.errors.map((error) => error.format()).join('\n');
  }
}
