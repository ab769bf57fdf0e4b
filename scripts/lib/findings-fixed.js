// Whether a published claim was fixed before the runs that judge it (docs/findings.md): its hash against the one its
// folder recorded when its runs started (claims.json, runner/verdicts/claim-hash.js), when this version of it was
// written (the ledger scripts/claims-history.js makes from git) and when its runs ran (run.json).
import { existsSync, readFileSync } from 'node:fs';
import { checkClaimFixed, hashClaim } from '../../runner/verdicts/claim-hash.js';

/** The ledger (scripts/claims-history.js), or null where there is none. */
export function readLedger(file) {
  return file && existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
}

/** The words a verdict is marked with when its claim changed after its runs (or the folder cannot say). */
export const JUDGED_AFTER_CHANGE = 'judged after a change';

/**
 * @param {object} claim  normalized, as the file has it now
 * @param {object} folder  readResults of its experiment (claimsRecord, info)
 * @param {object|null} ledger
 * @returns {{ status: 'fixed'|'changed'|'unrecorded', marked: boolean, text: string }}  marked: the verdict is
 *   read with a claim its runs were not made for; text: when it was written, when its runs ran, and that
 */
export function describeFixed(claim, folder, ledger) {
  const status = checkClaimFixed(claim, folder.claimsRecord);
  const written = ledger?.claims?.[hashClaim(claim)];
  const writtenText = written
    ? `written ${formatTime(written.date)} (${written.commit})`
    : ledger
      ? 'this version not in a committed file yet'
      : 'no ledger of when claims were written';
  const { started_at: started, finished_at: finished } = folder.info ?? {};
  const runsText = started
    ? `runs ${formatTime(started)} – ${finished ? formatTime(finished) : '?'}`
    : 'runs: no run.json';
  const backfilled = folder.claimsRecord?.recorded === 'backfilled' ? ' (record backfilled from run.json)' : '';
  const verdict = {
    fixed: `fixed before its runs${backfilled}`,
    changed: `**${JUDGED_AFTER_CHANGE}**: the runs were made for another version of it${backfilled}`,
    unrecorded: `**${JUDGED_AFTER_CHANGE}?** the folder records no claims (no claims.json)`,
  }[status];
  return { status, marked: status !== 'fixed', text: `${writtenText}; ${runsText}: ${verdict}` };
}

function formatTime(iso) {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}
