// When each version of a published claim was written, from the claims file's history (scripts/claims-history.js
// reads it with git), and what a results folder that predates claims.json was judged with. Pure: the versions of the
// file come in as text, each with its commit and date.
import { parseYaml } from '../../runner/config/parse-yaml.js';
import { normalizeClaim } from '../../runner/config/check-claims.js';
import { HASHED_FIELDS, hashClaim } from '../../runner/verdicts/claim-hash.js';

/**
 * Each experiment's claims in one version of the file, hashed: { experiment → [{ says, hash }] }. A claim the current
 * normalizer cannot read (a shape since changed) is left out: it cannot be the version of any claim today.
 * @param {string} text  the YAML
 * @param {string} name  for messages
 */
export function hashVersion(text, name = 'published-experiments.yml') {
  const { raw } = parseYaml(text, name);
  return Object.fromEntries(
    Object.entries(raw?.experiments ?? {}).map(([experiment, body]) => [
      experiment,
      (Array.isArray(body?.claims) ? body.claims : []).flatMap((claim) => {
        try {
          return [{ says: claim.says, hash: hashClaim(normalizeClaim(claim)) }];
        } catch {
          return [];
        }
      }),
    ]),
  );
}

/**
 * The ledger: every claim version the history holds, by hash, with the first commit that has it.
 * @param {{ commit: string, date: string, claims: Record<string, {says: string, hash: string}[]> }[]} versions
 *   oldest first
 */
export function buildLedger(versions) {
  const claims = {};
  for (const { commit, date, claims: byExperiment } of versions)
    for (const [experiment, list] of Object.entries(byExperiment))
      for (const { says, hash } of list) claims[hash] ??= { experiment, says, commit, date };
  return {
    tool: 'node-threads-lab',
    what: 'every version of every claim of the claims file, by its hash, with the first commit that holds it',
    fields: HASHED_FIELDS,
    claims: Object.fromEntries(Object.entries(claims).sort(([, a], [, b]) => a.date.localeCompare(b.date))),
  };
}

/**
 * A claims.json for a folder whose runs predate it: the claims its run.json recorded at the start (the config the
 * runs were made with), checked against the file at the folder's revision, and for each of them the first commit
 * after the runs started that no longer holds it (when it was changed).
 * @param {object} info  the folder's run.json
 * @param {{ commit: string, date: string, claims: object }[]} versions  the file's history, oldest first
 * @param {{ on: string, revisionClaims?: object[]|null }} context  today's date; the experiment's claims at the
 *   folder's revision (null: not in the history)
 */
export function buildBackfill(info, versions, { on, revisionClaims }) {
  const recorded = (info.config?.claims ?? []).map((claim) => ({ says: claim.says, hash: hashClaim(claim) }));
  const started = Date.parse(info.started_at);
  const later = versions.filter((version) => Date.parse(version.date) > started);
  const sameAsFile =
    revisionClaims === null || revisionClaims === undefined
      ? 'not in the history'
      : JSON.stringify(revisionClaims.map((each) => each.hash)) === JSON.stringify(recorded.map((each) => each.hash))
        ? 'the same claims'
        : 'other claims';
  return {
    tool: 'node-threads-lab',
    recorded: 'backfilled',
    at: info.started_at,
    fields: HASHED_FIELDS,
    claims: recorded,
    backfill: {
      on,
      from: "run.json's config.claims, which the runs recorded when they started",
      revision: info.project?.git_revision ?? null,
      work_tree_dirty: info.project?.git_dirty ?? null,
      file_at_revision: sameAsFile,
      changed_after_the_runs: recorded.map(({ says, hash }) => {
        const gone = later.find((version) => !(version.claims[info.experiment] ?? []).some((c) => c.hash === hash));
        return { says, hash, changed_in: gone ? { commit: gone.commit, date: gone.date } : null };
      }),
    },
  };
}
