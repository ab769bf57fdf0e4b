import { LabError } from '../errors.js';

/** "cpus=1,uv_threadpool_size=1" → { cpus: 1, uv_threadpool_size: 1 } (numbers where the text is one). */
export function parseAxisValues(text, option) {
  return Object.fromEntries(
    text
      .split(',')
      .filter(Boolean)
      .map((pair) => {
        const at = pair.indexOf('=');
        if (at <= 0)
          throw new LabError(
            'ERR_USAGE',
            `${option} expects AXIS=VALUE pairs separated by commas, found ${JSON.stringify(pair)}`,
            { hint: `e.g. ${option} cpus=1,uv_threadpool_size=1` },
          );
        const value = pair.slice(at + 1);
        return [pair.slice(0, at), value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value];
      }),
  );
}
