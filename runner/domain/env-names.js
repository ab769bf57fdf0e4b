// Environment variable names the runner lets a config set, in `env:` and as matrix axes.

// UV_THREADPOOL_SIZE has its own axis so it shows up as a CSV column; LAB_* carry the runner's own settings.
const RESERVED = '(?!UV_THREADPOOL_SIZE$)(?!LAB_)';
export const ENV_NAME_PATTERN = `^${RESERVED}[A-Za-z_][A-Za-z0-9_]*$`;
export const ENV_AXIS_PATTERN = `^${RESERVED}[A-Z_][A-Z0-9_]*$`;

export function isEnvAxisName(name) {
  return new RegExp(ENV_AXIS_PATTERN).test(name);
}

/** Why `name` may not be set, or undefined when it is not reserved. */
export function explainReservedName(name) {
  if (name === 'UV_THREADPOOL_SIZE') {
    return {
      message: '`UV_THREADPOOL_SIZE` is set by the built-in axis `uv_threadpool_size`',
      hint: 'write e.g. `matrix: {uv_threadpool_size: [1, 4]}` so the value also lands in the CSV',
    };
  }
  if (name.startsWith('LAB_')) {
    return {
      message: `\`${name}\`: names starting with \`LAB_\` are reserved for the runner's own settings`,
      hint: 'rename the variable',
    };
  }
  return undefined;
}
