#!/usr/bin/env node
// When each published claim was written, from git: `npm run claims:history` reads every committed version of
// published-experiments.yml (git log), hashes each claim as the runner does (runner/verdicts/claim-hash.js) and
// writes the ledger docs/findings/claims-ledger.json — each claim version with the first commit that holds it —,
// which docs/findings.md reads for "written" (a version not committed yet is said so there). With --backfill, each
// results folder given that has no claims.json gets one from its run.json (the claims its runs recorded when they
// started), checked against the file at the folder's revision, with the commit that changed each claim after the
// runs, if one did.
//
//   node scripts/claims-history.js [--config FILE] [--ledger FILE] [--backfill DIR ...]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { isEntryPoint, parseCommandLine, runCommand } from '../runner/commands/command-line.js';
import { LabError } from '../runner/errors.js';
import { CLAIMS_RECORD } from '../runner/verdicts/claim-hash.js';
import { buildBackfill, buildLedger, hashVersion } from './lib/claims-history.js';

const PROJECT_DIR = fileURLToPath(new URL('../', import.meta.url));

const USAGE = `Usage: node scripts/claims-history.js [--config FILE] [--ledger FILE] [--backfill DIR ...]

  --config FILE   the claims file whose history is read (default: published-experiments.yml)
  --ledger FILE   where the ledger goes (default: docs/findings/claims-ledger.json)
  --backfill      the positional folders without claims.json get one from their run.json`;

export async function main(argv, { stdout = process.stdout } = {}) {
  const { values, positionals } = parseCommandLine(argv, {
    usage: USAGE,
    allowPositionals: true,
    options: {
      config: { type: 'string', default: join(PROJECT_DIR, 'published-experiments.yml') },
      ledger: { type: 'string', default: join(PROJECT_DIR, 'docs/findings/claims-ledger.json') },
      backfill: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    stdout.write(`${USAGE}\n`);
    return 0;
  }
  const config = resolve(values.config);
  const versions = readVersions(config);
  writeFileSync(resolve(values.ledger), `${JSON.stringify(buildLedger(versions), null, 2)}\n`);
  stdout.write(`wrote ${values.ledger}: ${versions.length} committed versions of ${basename(config)}\n`);
  if (!values.backfill) return 0;
  const on = new Date().toISOString().slice(0, 10);
  for (const dir of positionals.map((each) => resolve(each))) {
    const target = join(dir, CLAIMS_RECORD);
    if (existsSync(target)) {
      stdout.write(`${dir}: has ${CLAIMS_RECORD} already, left as it is\n`);
      continue;
    }
    const info = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
    const revisionClaims = readAtRevision(config, info.project?.git_revision, info.experiment);
    writeFileSync(target, `${JSON.stringify(buildBackfill(info, versions, { on, revisionClaims }), null, 2)}\n`);
    stdout.write(`${dir}: wrote ${CLAIMS_RECORD} (backfilled)\n`);
  }
  return 0;
}

function git(args, cwd) {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  } catch (cause) {
    throw new LabError('ERR_USAGE', `git ${args[0]} failed in ${cwd}: the claims' history needs a git checkout`, {
      hint: 'run it in a clone with its history (not a shallow one)',
      cause,
    });
  }
}

// Every committed version of the file, oldest first, each hashed.
function readVersions(config) {
  const cwd = dirname(config);
  const path = relative(git(['rev-parse', '--show-toplevel'], cwd).trim(), config);
  return git(['log', '--reverse', '--format=%H %cI', '--', path], cwd)
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [commit, date] = line.split(' ');
      const text = git(['show', `${commit}:${path}`], cwd);
      return { commit: commit.slice(0, 7), date: new Date(date).toISOString(), claims: hashVersion(text, path) };
    });
}

// The experiment's claims in the file at a revision (null: no such revision or file there).
function readAtRevision(config, revision, experiment) {
  if (!revision) return null;
  const cwd = dirname(config);
  const path = relative(git(['rev-parse', '--show-toplevel'], cwd).trim(), config);
  try {
    const text = execFileSync('git', ['show', `${revision}:${path}`], { cwd, encoding: 'utf8' });
    return hashVersion(text, path)[experiment] ?? [];
  } catch {
    return null;
  }
}

if (isEntryPoint(import.meta.url)) runCommand(main);
