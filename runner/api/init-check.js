// What init would write, checked by the pipeline `plan` runs (the schema and the experiment's checks, the matrix
// expanded, the user's module read for its export) before a byte is written. A refusal names the init flag that
// fixes it, since the person wrote no file: they gave flags.
import path from 'node:path';
import { LabError, LabErrors } from '../errors.js';
import { parseYaml, validateConfig } from '../config/load-config.js';
import { DEFAULT_NODE_MAJOR } from '../domain/axes.js';
import { planExperiments } from '../plan/plan-runs.js';
import { checkUserCode } from '../user-code/check-user-code.js';

// Where in the file a mistake is → the flag that writes that key.
const FLAGS = [
  [/\.export$/, '--export NAME'],
  [/\.file$/, '--script FILE or --http-app FILE'],
  [/\.(start|port)$/, '--start "COMMAND" and --port N'],
  [/\.(request|path|method|headers|body)/, '--request "METHOD /path", --header, --body'],
  [/\.cpus|\.matrix\.cpus/, '--cpus LIST or --from FILE'],
  [/\.memory$/, '--from FILE'],
  [/\.argv|\.image/, '--command "PROGRAM ARGS" and --image IMAGE'],
];

/**
 * @param {string} text  the file init would write
 * @param {{ file: string, cpus: { count: number } }} context
 * @throws {LabError} ERR_USAGE (exit 2): what plan would say of it, and the flag that fixes it
 */
export async function checkInitFile(text, { file, cpus }) {
  try {
    const { raw, locate } = parseYaml(text, file);
    const config = validateConfig(raw, {
      file,
      locate,
      host: { cpus: Math.max(cpus.count, 1) },
      configDir: path.dirname(file),
    });
    const plans = planExperiments(config, { defaultNodeMajor: DEFAULT_NODE_MAJOR });
    await checkUserCode(plans, config);
  } catch (error) {
    if (!(error instanceof LabError || error instanceof LabErrors)) throw error;
    const errors = error instanceof LabErrors ? error.errors : [error];
    throw new LabError(
      'ERR_USAGE',
      `init would write a file that does not run: ${errors.map((each) => `${each.path ? `${each.path}: ` : ''}${each.message}`).join('; ')}`,
      {
        hint: `${errors
          .map((each) => each.hint)
          .filter(Boolean)
          .join('; ')}; give it to init with ${findFlag(errors)}; nothing was written`,
        cause: error,
      },
    );
  }
}

function findFlag(errors) {
  const flags = errors.map((each) => FLAGS.find(([pattern]) => pattern.test(each.path ?? ''))?.[1]).filter(Boolean);
  return flags.length > 0 ? [...new Set(flags)].join(', ') : 'the flags of `node-threads-lab init --help`';
}
