import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isEntryPoint, parseCommandLine } from '../../../runner/commands/command-line.js';

const OPTIONS = { only: { type: 'string' }, plan: { type: 'boolean' }, 'fail-fast': { type: 'boolean' } };

describe('parseCommandLine', () => {
  test.each([
    ['--onyl', 'did you mean --only?'],
    ['--plna', 'did you mean --plan?'],
    ['--failfast', 'did you mean --fail-fast?'],
  ])('%s gets a "did you mean"', (typed, suggestion) => {
    expect(() => parseCommandLine([typed], { options: OPTIONS, usage: 'u' })).toThrow(
      expect.objectContaining({ code: 'ERR_USAGE', message: expect.stringContaining(suggestion) }),
    );
  });

  test('an option far from every known one gets none', () => {
    expect(() => parseCommandLine(['--zebra'], { options: OPTIONS, usage: 'u' })).toThrow(/^Unknown option '--zebra'$/);
  });
});

describe('isEntryPoint', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-entry-'));
  const file = join(dir, 'cli.js');
  writeFileSync(file, '');
  const link = join(dir, 'node-threads-lab');
  symlinkSync(file, link);

  test('is true for the file itself and through a symlink (npm link, global install, npx)', () => {
    expect(isEntryPoint(pathToFileURL(file).href, file)).toBe(true);
    expect(isEntryPoint(pathToFileURL(file).href, link)).toBe(true);
  });

  test('is false for another program, and when there is none', () => {
    expect(isEntryPoint(pathToFileURL(file).href, join(dir, 'other.js'))).toBe(false);
    expect(isEntryPoint(pathToFileURL(file).href, undefined)).toBe(false);
  });
});
