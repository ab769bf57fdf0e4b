// What in a user's code runs on libuv's pool, read from the syntax trees of the module and the user's own files it
// imports (test/fixtures/own-code/pool/): the async forms only, every way of importing them, packages never read.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPoolCalls, formatPoolCall } from '../../../runner/user-code/pool-calls.js';

const POOL = fileURLToPath(new URL('../../fixtures/own-code/pool/', import.meta.url));
const find = (file, options) => findPoolCalls(join(POOL, file), { root: POOL, ...options });
const shown = (found) => found.calls.map((call) => formatPoolCall(call, POOL));

test('the calls that run on the pool, in the module and the files it imports; sync forms and packages left out', () => {
  const found = find('handler.js');
  expect(shown(found)).toEqual([
    'handler.js:8 crypto.pbkdf2',
    // handed to util.promisify: its async form
    'lib/hash.cjs:5 crypto.randomBytes',
    'lib/hash.cjs:8 crypto.randomBytes',
    'lib/hash.cjs:12 zlib.gzip',
    'lib/hash.cjs:13 zlib.createGzip',
    'lib/settings.js:8 fs.stat',
    'lib/settings.js:9 fs.promises.readFile',
    'lib/settings.js:10 fs.promises.readFile',
    'lib/settings.js:11 dns.promises.lookup',
    'lib/settings.js:12 dns.lookup',
    'lib/settings.js:13 crypto.subtle',
    'lib/settings.js:14 fetch (dns.lookup of its host)',
    'lib/settings.js:16 dns.promises.lookup',
    'deep/two.js:2 https.get (dns.lookup of its host)',
  ]);
  expect(found.files.map((file) => file.slice(POOL.length))).toEqual([
    'handler.js',
    'lib/hash.cjs',
    'lib/settings.js',
    'lib/more.js',
    'deep/one.js',
    'deep/two.js',
  ]);
  expect(found.packages).toEqual(['fake-hash']);
  expect(found.unread).toEqual([]);
});

test('imports are followed to a depth, and what is deeper is said', () => {
  const found = find('handler.js', { maxDepth: 1 });
  expect(shown(found).at(-1)).toBe('lib/settings.js:16 dns.promises.lookup');
  expect(found.unread.map(({ file, why }) => [file.slice(POOL.length), why])).toEqual([
    ['lib/more.js', 'more than 1 imports deep'],
  ]);
});

test('code that computes on its own thread has no pool call; a file that does not parse is said, not thrown', () => {
  expect(find('cpu-only.js')).toEqual({ calls: [], files: [join(POOL, 'cpu-only.js')], packages: [], unread: [] });
  const broken = find('broken-import.js');
  expect(broken.calls).toEqual([]);
  expect(broken.unread).toEqual([
    { file: join(POOL, 'lib/broken.js'), why: expect.stringMatching(/^does not parse \(Unexpected token at 1:/) },
  ]);
});
