// Every file in test/fixtures/bad-configs/ must fail with exactly the errors its leading comments name:
//   # expect: LINE:COLUMN PATH: part of the message
//   # expect: LINE:COLUMN part of the message          (errors about the whole file have no path)

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LabError } from '../../../runner/errors.js';
import { loadConfig } from '../../../runner/config/load-config.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/bad-configs/', import.meta.url));
const HOST = { cpus: 2, cpuIds: [0, 1] };
const EXPECT_LINE = /^# expect: (\d+):(\d+) (?:(\S+): )?(.+)$/;

const fixtures = readdirSync(FIXTURES)
  .filter((name) => name.endsWith('.yml'))
  .sort();

function readExpectations(file) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('# expect:'))
    .map((line) => {
      const match = EXPECT_LINE.exec(line);
      if (!match) throw new Error(`${file}: cannot read "${line}"`);
      const [, lineNumber, column, path = '', message] = match;
      return { at: `${lineNumber}:${column}`, path, message };
    });
}

async function loadErrors(file) {
  try {
    await loadConfig(file, { host: HOST });
  } catch (error) {
    return error;
  }
  throw new Error(`${file} loaded without an error`);
}

test('the catalogue has at least 25 broken configs', () => {
  expect(fixtures.length).toBeGreaterThanOrEqual(25);
});

test.each(fixtures)('%s reports what its # expect lines say', async (name) => {
  const file = `${FIXTURES}${name}`;
  const expectations = readExpectations(file);
  expect(expectations.length).toBeGreaterThan(0);

  const error = await loadErrors(file);
  expect(error).toBeInstanceOf(LabError);
  expect(error.code).toBe('ERR_CONFIG_INVALID');
  const errors = error.errors ?? [error];
  expect(
    errors.map((each) => ({ at: `${each.line}:${each.column}`, path: each.path ?? '', message: each.message })),
  ).toEqual(expectations.map(({ at, path, message }) => ({ at, path, message: expect.stringContaining(message) })));
  for (const each of errors) {
    expect(each.code).toBe('ERR_CONFIG_INVALID');
    expect(each.file).toBe(file);
    expect(each.hint).toEqual(expect.any(String));
  }
});
