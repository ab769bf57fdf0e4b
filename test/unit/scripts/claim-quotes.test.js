// The quote check's pure part (scripts/lib/claim-quotes.js): which numbers a claim quotes, which a post prints,
// and which post a claim names. The script itself runs in .ci/run against ../shared/seeds.
import {
  canonicalNumber,
  extractNumbers,
  findPostFile,
  findUnquotedNumbers,
  listClaims,
} from '../../../scripts/lib/claim-quotes.js';

// Lines as post 000 and post 002 print them.
const POST = [
  '응용 프로그램의 평균 처리량은 초당 13,285건이었습니다.',
  '평균 처리량은 초당 18,981개의 요청이었습니다. 처리량이 약 43% 증가했음을 의미합니다.',
  '0 318,124 KB 31,836 KB 47,876 KB',
  '2 cores 9.08 9.60 9.38 9.57',
  '- 싱글스레드: 1.8초 가량 소요.',
  '- 작업 크기: 1 to 10^7및 1 to 10^9',
  '$ THREADS=2 STRATEGY=leastbusy taskset -c 0 node main.js',
].join('\n');

describe('claim quotes', () => {
  test('a number is one token whatever its format: thousands separators, trailing zeros, 10^N', () => {
    expect(extractNumbers('13,285 → 18,981 req/s (+43%), 9.60, N = 10^9, 1.8 s').map(({ number }) => number)).toEqual([
      '13285',
      '18981',
      '43',
      '9.6',
      '10^9',
      '1.8',
    ]);
    expect(canonicalNumber('010')).toBe('10');
    expect(canonicalNumber('1,401,500')).toBe('1401500');
    // A comma followed by a space separates two numbers; one not followed by three digits is no separator.
    expect(extractNumbers('8.46, 8.69; 1,2').map(({ number }) => number)).toEqual(['8.46', '8.69', '1', '2']);
  });

  test('digits inside a name are not a quote in `says`, but count as printed in a post', () => {
    expect(extractNumbers('argon2 and pbkdf2 with sha512 on an M1 (x86, p50)').map(({ text }) => text)).toEqual([]);
    expect(extractNumbers('UV_THREADPOOL_SIZE=8 node v16', { names: true }).map(({ text }) => text)).toEqual([
      '8',
      '16',
    ]);
  });

  test('a claim that quotes the post passes; a worked-out ratio, a number in another unit or a rounded one is listed once each', () => {
    expect(findUnquotedNumbers('Offloading: 13285 → 18,981 req/s (+43%) on 2 cores (taskset -c 0)', POST)).toEqual([]);
    expect(findUnquotedNumbers('N = 10^9: single ≈ 1.8 s', POST)).toEqual([]);
    expect(findUnquotedNumbers('13,285 → 18,981 req/s, 1.43×; 1800 ms; 31.8 MB; again 1.43', POST)).toEqual([
      '1.43',
      '1800',
      '31.8',
    ]);
    // 10^9 is not its digits: a 10^8 the post never prints is caught though 10 and 8 are there.
    expect(findUnquotedNumbers('N = 10^8', `${POST}\n10 8`)).toEqual(['10^8']);
  });

  test('a post is named by its file name without .txt, or by the part before the first _', () => {
    const files = ['000_2c4de8d8b1cde2bb.txt', '003_ab0c82673193e8d3.txt', '003_copy.txt', 'README.md', 'plain.txt'];
    expect(findPostFile('000', files)).toEqual({ file: '000_2c4de8d8b1cde2bb.txt' });
    expect(findPostFile('003_ab0c82673193e8d3', files)).toEqual({ file: '003_ab0c82673193e8d3.txt' });
    expect(findPostFile('plain', files)).toEqual({ file: 'plain.txt' });
    expect(findPostFile('003', files).error).toMatch(/^003 names 2 texts \(003_ab0c82673193e8d3\.txt, 003_copy\.txt\)/);
    expect(findPostFile('README', files).error).toMatch(/^no README\.txt or README_\*\.txt among /);
  });

  test('every claim of every experiment is listed with its path, aliases and all', () => {
    const shared = [{ says: 'a', post: '001' }];
    const raw = {
      experiments: {
        one: { claims: shared },
        two: { claims: shared },
        three: { matrix: {} },
        four: { claims: [null, { says: 'b' }] },
      },
    };
    expect(listClaims(raw)).toEqual([
      { path: ['experiments', 'one', 'claims', 0], says: 'a', post: '001' },
      { path: ['experiments', 'two', 'claims', 0], says: 'a', post: '001' },
      { path: ['experiments', 'four', 'claims', 0], says: undefined, post: undefined },
      { path: ['experiments', 'four', 'claims', 1], says: 'b', post: undefined },
    ]);
    expect(listClaims(null)).toEqual([]);
  });
});
