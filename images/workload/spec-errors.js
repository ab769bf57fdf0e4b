// What every check of LAB_SPEC shares: what counts as an object, how a wrong value is quoted, and the
// error that makes the workload exit 2 with one line on stderr.
import { WorkloadError } from './workload-error.js';

export function isPlainObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A wrong value as it should appear in a message: JSON, cut at 60 characters. */
export function describe(value) {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

export function createSpecError(message) {
  return new WorkloadError('ERR_SPEC_INVALID', message);
}
