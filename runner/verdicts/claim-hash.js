// Claims fixed before the runs that judge them: a claim's hash over what it asserts, recorded in a results folder
// (claims.json) when its runs start, so a verdict read later can say whether its claim is the one the runs were made
// for or was changed after them. The hash covers what decides a verdict and its class — the words (`says`), the
// metric, the pair and the cells (`compare`, `where`), the band (`expect`), the post's conditions, `not_comparable`
// and the post's figures a claim tests (`figures`) — and not where it comes from or how it is shown (`post`,
// `quote`, `direction`, `control`, `beside`): a quote made more exact changes no verdict.
import { createHash } from 'node:crypto';

export const HASHED_FIELDS = [
  'says',
  'metric',
  'compare',
  'where',
  'expect',
  'conditions',
  'not_comparable',
  'figures',
];

/** The file beside run.json that records them, and the words a folder's record is read with. */
export const CLAIMS_RECORD = 'claims.json';

/**
 * A normalized claim's hash: sha256 of its hashed fields as canonical JSON (keys sorted, empty values left out, so
 * `where: {}` and no `where` are one claim), the first 16 hex digits.
 * @param {object} claim  as config/normalize gives it (and run.json records it)
 * @returns {string}
 */
export function hashClaim(claim) {
  const picked = Object.fromEntries(HASHED_FIELDS.map((field) => [field, canonical(claim[field])]));
  return createHash('sha256')
    .update(JSON.stringify(canonical(picked)))
    .digest('hex')
    .slice(0, 16);
}

// Sorted keys; null, undefined and empty objects dropped; numbers and strings as they are.
function canonical(value) {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value ?? undefined;
  const entries = Object.keys(value)
    .sort()
    .map((key) => [key, canonical(value[key])])
    .filter(([, each]) => each !== undefined && !(isObject(each) && Object.keys(each).length === 0));
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
}

function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * What a folder records when its runs start: each claim's words and hash, the fields hashed, and when.
 * @param {object[]} claims  the experiment's normalized claims
 * @param {string} startedAt  ISO time the runs started
 */
export function buildClaimsRecord(claims = [], startedAt) {
  return {
    tool: 'node-threads-lab',
    recorded: 'at the start of the runs',
    at: startedAt,
    fields: HASHED_FIELDS,
    claims: claims.map((claim) => ({ says: claim.says, hash: hashClaim(claim) })),
  };
}

/**
 * Whether a claim is one a folder's runs were made for: 'fixed' (its hash is in the record), 'changed' (the record
 * has other hashes: the claim was written or changed after the runs started) or 'unrecorded' (no record).
 * @param {object} claim  normalized
 * @param {object|null} record  the folder's claims.json
 * @returns {'fixed'|'changed'|'unrecorded'}
 */
export function checkClaimFixed(claim, record) {
  if (!record || !Array.isArray(record.claims)) return 'unrecorded';
  const hash = hashClaim(claim);
  return record.claims.some((each) => each.hash === hash) ? 'fixed' : 'changed';
}
