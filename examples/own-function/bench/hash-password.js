// A login endpoint's expensive part: derive a key from a password with PBKDF2-SHA512. crypto.pbkdf2
// runs on the libuv thread pool, so N calls started at once finish in waves of UV_THREADPOOL_SIZE.
import { pbkdf2, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

const derive = promisify(pbkdf2);

export default async function hashPassword({ password = 'correct horse battery staple', iterations = 210000 }) {
  const key = await derive(password, randomBytes(16), iterations, 64, 'sha512');
  return { key_bytes: key.length };
}
