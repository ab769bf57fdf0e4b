// The one entry point the runner uses: experiments.yml on disk → validated, normalized experiments.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LabError } from '../errors.js';
import { parseYaml } from './parse-yaml.js';
import { validateConfig } from './validate.js';

export { parseYaml } from './parse-yaml.js';
export { validateConfig } from './validate.js';

/**
 * @param {string} file  path to experiments.yml
 * @param {object} [options]
 * @param {{cpus: number, cpuIds: number[]}} [options.host]  defaults to this machine (see host.js)
 * @returns {Promise<{file: string, experiments: object[], locate: Function, raw: object}>}
 */
export async function loadConfig(file, { host } = {}) {
  const absolute = path.resolve(file);
  const text = await readConfigText(absolute);
  const { raw, locate } = parseYaml(text, absolute);
  return validateConfig(raw, { file: absolute, locate, host });
}

async function readConfigText(file) {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    // "ENOENT: no such file or directory, open '/x'" → "no such file or directory": the path is named once already.
    const reason = /^[A-Z]+: ([^,]+)/.exec(error.message)?.[1] ?? error.message;
    throw new LabError('ERR_CONFIG_UNREADABLE', `cannot read ${file}: ${reason} (${error.code})`, {
      file,
      hint: 'create it or pass --config FILE',
      cause: error,
    });
  }
}
