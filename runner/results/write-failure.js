// A results file that cannot be written (a full disk, above all): one error that names the file and says what to
// do, instead of a raw ENOSPC stack trace. Whoever knows more (how many rows are kept, whether run.json exists to
// resume from) adds it to the hint: run-matrix.js and run-experiments.js.
import { basename, dirname } from 'node:path';
import { LabError } from '../errors.js';

export const WRITE_FAILURE = 'ERR_RESULTS_WRITE';

const FULL = new Set(['ENOSPC', 'EDQUOT']);

/** The LabError for a failed write of `path` (any fs error), with the folder it belongs to in `outDir`. */
export function toWriteFailure(path, cause) {
  const reason = FULL.has(cause?.code)
    ? `no space left on the device (${cause.code})`
    : `${cause?.code ?? 'error'}: ${cause?.message ?? cause}`;
  return new LabError(WRITE_FAILURE, `cannot write ${basename(path)} in ${dirname(path)}: ${reason}`, {
    hint: FULL.has(cause?.code) ? `free space on that disk (df -h ${dirname(path)})` : `check ${dirname(path)}`,
    outDir: dirname(path),
    full: FULL.has(cause?.code),
    cause,
  });
}

export function isWriteFailure(error) {
  return error instanceof LabError && error.code === WRITE_FAILURE;
}

/**
 * What to do next, once it is known what the folder holds.
 * @param {LabError} error  from toWriteFailure
 * @param {{ outDir: string, rowsKept: number, resumable: boolean }} state  resumable: run.json is in the folder
 */
export function explainWriteFailure(error, { outDir, rowsKept, resumable }) {
  let kept = "no run's row was written";
  if (rowsKept === 1) kept = 'the 1 run already in runs.csv (with its tasks) is kept, whole';
  if (rowsKept > 1) kept = `the ${rowsKept} runs already in runs.csv (with their tasks) are kept, every row whole`;
  const free = error.full ? `free space on that disk (df -h ${outDir})` : `fix what stops writes to ${outDir}`;
  const next = resumable
    ? `${free}, then finish the matrix where it stopped: npm run matrix -- --resume ${outDir}`
    : `${free}, then run the matrix again`;
  const elsewhere = resumable
    ? 'or move the folder to another disk and --resume it there, or start again there: npm run matrix -- --out OTHER_DIR'
    : 'or run it on another disk: npm run matrix -- --out OTHER_DIR';
  error.hint = [`${kept}; no container is left.`, `${next};`, elsewhere].join('\n  ');
  return error;
}
