#!/usr/bin/env node
// `npm run claims -- DIR`: the verdicts of a results folder, computed again from its runs.csv and run.json.
// Exit status: 0 every claim holds, 1 a claim is refuted, 3 some are inconclusive and none refuted, 2 bad usage.
import { resolve } from 'node:path';
import { LabError } from '../runner/errors.js';
import { parseCommandLine, runCommand } from '../runner/command-line.js';
import { readResults } from '../runner/results/read-results.js';
import { loadConfig } from '../runner/config/load-config.js';
import { judgeResults } from '../runner/report/verdicts.js';
import { formatAnswersText } from '../runner/report/answers.js';

const USAGE = `Usage: npm run claims -- DIR [--config FILE] [--steps] [--keep-disturbed]

  DIR            a results folder written by \`npm run matrix\`
  --config FILE  check the claims of this file's experiment of the same name instead of those in DIR/run.json
                 (claims written after the run)
  --steps        also print every automatic step, not only the claims and the axis that moves each metric most
  --keep-disturbed  count disturbed runs (\`disturbed\` = true in runs.csv) in the statistics (default: as the
                    matrix was told; left out unless it ran with --keep-disturbed)
  -h, --help     this text

Exit status: 0 every claim holds, 1 a claim is refuted, 3 some claims are inconclusive and none is refuted,
2 a bad folder or usage.`;

export async function main(argv, { stdout = process.stdout } = {}) {
  const { values, positionals } = parseCommandLine(argv, {
    allowPositionals: true,
    usage: USAGE,
    options: { config: { type: 'string' }, steps: { type: 'boolean', default: false }, 'keep-disturbed': { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
  });
  if (values.help) {
    stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (positionals.length !== 1) throw new LabError('ERR_USAGE', `expected one results folder, found ${positionals.length}`, { hint: USAGE });
  const dir = resolve(positionals[0]);
  const results = readResults(dir, { keepDisturbed: values['keep-disturbed'] || undefined });
  const claims = values.config ? await readClaims(values.config, results) : results.info?.config?.claims ?? [];
  const verdicts = judgeResults(results, { claims });
  stdout.write(`${dir}\n`);
  if (claims.length === 0) stdout.write(`No claims: ${values.config ? `the experiment in ${values.config}` : 'run.json'} has no \`claims:\`.\n`);
  stdout.write(`${formatAnswersText(verdicts, { allSteps: values.steps }).join('\n')}\n`);
  return verdicts.exitCode;
}

async function readClaims(file, results) {
  const config = await loadConfig(resolve(file));
  const name = results.info?.experiment ?? results.runs[0]?.experiment;
  const experiment = config.experiments.find((each) => each.name === name);
  if (!experiment) throw new LabError('ERR_USAGE', `${file} has no experiment named ${JSON.stringify(name)} (the folder's experiment)`, { hint: `experiments there: ${config.experiments.map((each) => each.name).join(', ')}` });
  return experiment.claims ?? [];
}

runCommand(main);
