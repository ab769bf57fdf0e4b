// A login endpoint's expensive part: derive a key from a password with scrypt. crypto.scrypt runs
// on the libuv thread pool, so N calls started at once finish in waves of UV_THREADPOOL_SIZE.
import { scrypt, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt);

export default async function hashPassword({ password = 'correct horse battery staple', cost = 16384 }) {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, 64, { N: cost, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return { key_bytes: key.length };
}
