// The quote check's pure part (scripts/lib/claim-quotes.js): which numbers a claim quotes, which a post prints,
// and which post a claim names. The script itself runs in .ci/run against ../shared/seeds.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  canonicalNumber,
  extractNumbers,
  findDirectionProblems,
  findMissingPassages,
  findPostFile,
  findUnquotedNumbers,
  listClaims,
} from '../../../scripts/lib/claim-quotes.js';
import { checkFigures, checkQuotes } from '../../../scripts/check-claim-quotes.js';
import { parseYaml } from '../../../runner/config/parse-yaml.js';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

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
    const listed = (path, says, post) => ({
      path,
      says,
      post,
      quote: undefined,
      control: false,
      direction: undefined,
      figures: undefined,
      reasons: { not_comparable: undefined, 'conditions.note': undefined },
      design: JSON.stringify([{}, undefined, undefined]),
      expect: undefined,
      metric: undefined,
      workload: undefined,
    });
    expect(listClaims(raw)).toEqual([
      listed(['experiments', 'one', 'claims', 0], 'a', '001'),
      listed(['experiments', 'two', 'claims', 0], 'a', '001'),
      listed(['experiments', 'four', 'claims', 0], undefined, undefined),
      listed(['experiments', 'four', 'claims', 1], 'b', undefined),
    ]);
    expect(listClaims(null)).toEqual([]);
  });
});

// Post 004's own lines, wrapped as the post wraps them.
const POST_004 = [
  '  1. 쓰레드 수 4',
  '  2. 쓰레드 수 8',
  '',
  '거진 두배차이의 시간이 걸린다. 즉 쓰레드가 많을 수록, 컨텍스트 스위칭이 발생해서 문제가 발생한다.',
].join('\n');

function postsFolder() {
  const dir = mkdtempSync(join(tmpdir(), 'lab-quotes-'));
  writeFileSync(join(dir, '004_427146c4c90239ed.txt'), POST_004);
  return dir;
}

const configWith = (claim) => ({
  experiments: {
    argon2: {
      matrix: { workload: ['argon2'] },
      claims: [{ post: '004', direction: 'B twice', expect: { ratio: 2, within: 0.25 }, ...claim }],
    },
  },
});

describe('quotes checked as text', () => {
  const QUOTE = '1. 쓰레드 수 4 2. 쓰레드 수 8 거진 두배차이의 시간이 걸린다.';
  const SAYS = '4 → 8 pool threads took nearly twice the time';

  test('a passage is found whatever its line breaks and runs of spaces; a list is each of its passages', () => {
    expect(findMissingPassages(QUOTE, POST_004)).toEqual([]);
    expect(findMissingPassages([QUOTE, '  거진   두배차이의\n시간이 '], POST_004)).toEqual([]);
  });

  test('the quote as printed passes; a changed word inside it fails, naming the claim and the passage', () => {
    const posts = postsFolder();
    expect(checkQuotes(configWith({ says: SAYS, quote: QUOTE }), posts)).toEqual([]);
    const changed = QUOTE.replace('거진', '거의');
    expect(checkQuotes(configWith({ says: SAYS, quote: [changed] }), posts)).toEqual([
      {
        path: ['experiments', 'argon2', 'claims', 0, 'quote', 0],
        message: `not in 004_427146c4c90239ed.txt as printed: "${changed}"`,
      },
    ]);
  });

  test('a claim without a quote fails; a number of `says` its quote lacks fails though the post prints it', () => {
    const posts = postsFolder();
    expect(checkQuotes(configWith({ says: SAYS }), posts)[0].message).toMatch(/^has no `quote:`/);
    // 8 is in the post, not in this quote.
    expect(checkQuotes(configWith({ says: SAYS, quote: '1. 쓰레드 수 4' }), posts)).toEqual([
      { path: ['experiments', 'argon2', 'claims', 0, 'says'], message: '8 is not a number its quote prints' },
    ]);
    // A control's `says` describes the design: its numbers need only be the post's.
    expect(checkQuotes(configWith({ says: SAYS, quote: '1. 쓰레드 수 4', control: true }), posts)).toEqual([]);
  });

  test("the findings' post figures are quotes too: one its post does not print is named by its line", () => {
    const posts = postsFolder();
    const source = [
      'prose',
      '<!-- findings:figure argon2-pool-100 post=004 quote="거진 두배차이" what="x" metric=wall_ms -->',
      '<!-- findings:figure argon2-pool-100 post=004 quote="세배차이" what="x" metric=wall_ms -->',
    ].join('\n');
    expect(checkFigures(source, posts)).toEqual([
      { line: 3, message: 'findings:figure quotes "세배차이", which 004_427146c4c90239ed.txt does not print' },
    ]);
  });
});

// The summary keeps the post's direction: a claim declares which way `says` puts B against A in a word of it, and
// `check:quotes` fails when that word is gone (the summary reversed), when the post's own "A → B" figures go the
// other way, or when `expect` lies on the other side of 1.
describe('a reversed summary fails the quote check', () => {
  const TIME = { metric: 'burst_p50_ms', better: 'lower' };
  const RATE = { metric: 'requests_per_sec', better: 'higher' };
  const claim = { says: '6 forks did worse than 2', direction: 'B worse', expect: { above: 1 } };

  test('a summary whose word agrees with its declared direction and its expect passes; either side of the pair', () => {
    expect(findDirectionProblems(claim, TIME)).toEqual([]);
    // "the main thread is faster", B the offloaded side: B / A below 1 on a rate.
    const offload = { says: 'rendering on the main thread is faster', direction: 'A faster', expect: { below: 1 } };
    expect(findDirectionProblems(offload, RATE)).toEqual([]);
    expect(findDirectionProblems({ ...offload, expect: { above: 1 } }, RATE)[0]).toMatch(/one of them is reversed/);
    const same = {
      says: 'a second thread adds nothing (8.46 → 8.69 req/s)',
      direction: 'B nothing',
      expect: { same: 0.1 },
    };
    expect(findDirectionProblems(same, RATE)).toEqual([]);
  });

  test('the summary reversed, its expect reversed, or the post figures in it reversed: each is caught', () => {
    expect(findDirectionProblems({ ...claim, says: '6 forks did better than 2' }, TIME)).toEqual([
      '`says` no longer has "worse", the word its `direction` declares: was the summary reversed?',
    ]);
    expect(findDirectionProblems({ ...claim, says: '6 forks did better than 2', direction: 'B better' }, TIME)).toEqual(
      ['`says` puts B / A below 1 ("B better" on burst_p50_ms) and `expect` above 1: one of them is reversed'],
    );
    expect(findDirectionProblems({ ...claim, expect: { below: 1 } }, TIME)[0]).toMatch(/one of them is reversed/);
    const memory = {
      says: 'RSS grows 31,836 KB → 38,372 KB',
      direction: 'B grows',
      expect: { ratio: 1.21, within: 0.1 },
    };
    expect(findDirectionProblems(memory, { metric: 'rss_mb', better: null })).toEqual([]);
    expect(
      findDirectionProblems({ ...memory, says: 'RSS grows 38,372 KB → 31,836 KB' }, { metric: 'rss_mb', better: null }),
    ).toEqual([
      '"38,372 KB → 31,836 KB" goes the other way from the word `direction` declares: was the summary reversed?',
    ]);
    expect(findDirectionProblems({ says: 'x', expect: { above: 1 } }, TIME)[0]).toMatch(/^declares no `direction`/);
    // Said twice, one reversal would leave the other to match.
    expect(findDirectionProblems({ ...claim, says: '6 forks did worse than 2, worse than 1' }, TIME)).toEqual([
      '`says` has "worse" 2 times: say the direction once, so a reversal cannot hide',
    ]);
  });

  test('every claim of published-experiments.yml keeps its direction, and reversing the word of any one is caught', () => {
    const file = fileURLToPath(new URL('../../../published-experiments.yml', import.meta.url));
    const { raw } = parseYaml(readFileSync(file, 'utf8'), file);
    const claims = listClaims(raw);
    const opposite = { worse: 'better', better: 'worse', faster: 'slower', slower: 'faster', more: 'less' };
    expect(claims.length).toBeGreaterThan(20);
    for (const each of claims) {
      const metric = {
        metric: each.metric ?? 'wall_ms',
        better: /_ms$/.test(each.metric ?? 'wall_ms') ? 'lower' : 'higher',
      };
      const word = each.direction.split(' ').slice(1).join(' ');
      const reversed = each.says.replace(word, opposite[word] ?? 'other');
      expect([each.says, findDirectionProblems({ ...each, says: reversed }, metric).length > 0]).toEqual([
        each.says,
        true,
      ]);
    }
  });

  test('checkQuotes names the claim whose summary was reversed', () => {
    const posts = postsFolder();
    const QUOTE = '1. 쓰레드 수 4 2. 쓰레드 수 8 거진 두배차이의 시간이 걸린다.';
    const reversed = checkQuotes(configWith({ says: '4 → 8 pool threads took half the time', quote: QUOTE }), posts);
    expect(reversed).toEqual([
      {
        path: ['experiments', 'argon2', 'claims', 0, 'direction'],
        message: '`says` no longer has "twice", the word its `direction` declares: was the summary reversed?',
      },
    ]);
  });
});
