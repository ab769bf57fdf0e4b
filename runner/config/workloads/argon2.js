// argon2 (npm `argon2`, a native addon): hashing that runs on the libuv pool with its own memory and thread knobs.

const params = {
  tasks: {
    type: 'integer', minimum: 1, default: 8, examples: [8],
    title: 'Calls per run', description: 'How many argon2.hash calls each run starts at once.',
  },
  memoryCost: {
    type: 'integer', minimum: 1024, default: 65536, examples: [65536],
    title: 'Memory cost (KiB)', description: 'Memory per hash in KiB (npm argon2 default 65536 = 64 MiB).',
  },
  timeCost: {
    type: 'integer', minimum: 1, default: 3, examples: [3],
    title: 'Time cost', description: 'Passes over the memory (npm argon2 default 3).',
  },
  parallelism: {
    type: 'integer', minimum: 1, maximum: 255, default: 4, examples: [1, 4],
    title: 'Parallelism', description: 'Lanes per hash (npm argon2 default 4).',
  },
};

export const argon2 = {
  description:
    'argon2.hash calls started at once. Each runs on the libuv thread pool and itself uses `parallelism` lanes.',
  params,
  checkParams,
};

/** Issues with paths relative to params.argon2, for values with the defaults filled in. */
function checkParams({ memoryCost, parallelism }) {
  // Argon2 itself rejects memory below 8 KiB per lane; better to say so now than in 48 failed runs.
  // Values the schema rejects are already reported.
  const valid = Number.isInteger(memoryCost) && memoryCost >= params.memoryCost.minimum &&
    Number.isInteger(parallelism) && parallelism <= params.parallelism.maximum;
  if (!valid || memoryCost >= 8 * parallelism) return [];
  return [{
    path: ['memoryCost'],
    message: `expected at least 8 KiB per lane (8 × parallelism ${parallelism} = ${8 * parallelism}), found ${memoryCost}`,
    hint: `raise memoryCost to ${8 * parallelism} or more, or lower parallelism`,
  }];
}
