// When each claim version was written (the ledger) and what a folder older than claims.json was judged with (the
// backfill), from versions of a claims file given as text: scripts/lib/claims-history.js, no git.
import { buildBackfill, buildLedger, hashVersion } from '../../../scripts/lib/claims-history.js';
import { hashClaim } from '../../../runner/verdicts/claim-hash.js';

const file = (expect) => `experiments:
  pool:
    matrix: {workload: [pbkdf2], cpus: [1, 2]}
    claims:
      - says: "2 CPUs halve it"
        post: "001"
        compare: {cpus: [1, 2]}
        expect: ${expect}
`;
const normalized = (expect) => ({
  says: '2 CPUs halve it',
  metric: null,
  compare: { cpus: [1, 2] },
  where: {},
  expect,
});

const versions = [
  { commit: 'aaaaaaa', date: '2026-11-20T10:00:00.000Z', claims: hashVersion(file('{below: 0.5}')) },
  { commit: 'bbbbbbb', date: '2026-11-21T10:00:00.000Z', claims: hashVersion(file('{below: 0.5}')) },
  { commit: 'ccccccc', date: '2026-11-23T10:00:00.000Z', claims: hashVersion(file('{ratio: 0.5, within: 0.1}')) },
];

test('a claim is hashed as the runner hashes it, whether read from the file or from run.json', () => {
  expect(versions[0].claims.pool).toEqual([{ says: '2 CPUs halve it', hash: hashClaim(normalized({ below: 0.5 })) }]);
  // Where it comes from is not what it asserts: a post or a quote changes no hash; the band does.
  expect(hashClaim({ ...normalized({ below: 0.5 }), post: '002', quote: ['x'] })).toBe(
    hashClaim(normalized({ below: 0.5 })),
  );
  expect(hashClaim(normalized({ below: 0.6 }))).not.toBe(hashClaim(normalized({ below: 0.5 })));
});

test('the ledger gives each claim version the first commit that holds it', () => {
  const ledger = buildLedger(versions);
  expect(Object.values(ledger.claims)).toEqual([
    { experiment: 'pool', says: '2 CPUs halve it', commit: 'aaaaaaa', date: '2026-11-20T10:00:00.000Z' },
    { experiment: 'pool', says: '2 CPUs halve it', commit: 'ccccccc', date: '2026-11-23T10:00:00.000Z' },
  ]);
});

test('a backfill records the claims run.json has, and the commit that changed each after the runs, if one did', () => {
  const info = {
    experiment: 'pool',
    started_at: '2026-11-22T09:00:00.000Z',
    project: { git_revision: 'bbbbbbb000', git_dirty: false },
    config: { claims: [normalized({ below: 0.5 })] },
  };
  const record = buildBackfill(info, versions, { on: '2026-11-28', revisionClaims: versions[1].claims.pool });
  expect(record).toMatchObject({
    recorded: 'backfilled',
    at: info.started_at,
    claims: [{ says: '2 CPUs halve it', hash: hashClaim(normalized({ below: 0.5 })) }],
    backfill: {
      revision: 'bbbbbbb000',
      file_at_revision: 'the same claims',
      changed_after_the_runs: [
        { says: '2 CPUs halve it', changed_in: { commit: 'ccccccc', date: '2026-11-23T10:00:00.000Z' } },
      ],
    },
  });
  // Runs after the last change: nothing changed since.
  const later = buildBackfill({ ...info, started_at: '2026-11-24T00:00:00.000Z', config: { claims: [] } }, versions, {
    on: '2026-11-28',
    revisionClaims: null,
  });
  expect(later.backfill).toMatchObject({ file_at_revision: 'not in the history', changed_after_the_runs: [] });
});
