// The preflight container's answer read, or why there is none, in words: never a bare "exit code 0".
import {
  describePreflightFailure,
  PREFLIGHT_STDOUT_LIMIT,
  readPreflightReport,
} from '../../../../runner/docker/runs/preflight-reason.js';

const raw = (overrides) => ({ exitCode: 0, stdout: '', stderr: '', timedOut: false, oomKilled: false, ...overrides });

test('the report is the last JSON line with ok: true, whatever the module printed around it', () => {
  const stdout = 'loading…\n{"not":"ours"}\n{"ok":true,"kind":"function","columns":["answer"]}\n';
  expect(readPreflightReport(stdout)).toEqual({ ok: true, kind: 'function', columns: ['answer'] });
  // The module's unfinished last line: the preflight starts its own line, so the report still reads.
  expect(readPreflightReport(`progress 99%\n{"ok":true,"columns":[]}\n`)).toEqual({ ok: true, columns: [] });
  expect(readPreflightReport('progress 99%{"ok":true}\n')).toBeNull();
});

test('what the preflight itself said on stderr comes first', () => {
  expect(
    describePreflightFailure(
      raw({ exitCode: 2, stderr: 'a warning\npreflight failed: x.js: has no export `y`; its exports: z\n' }),
      { timeoutS: 60 },
    ),
  ).toBe('x.js: has no export `y`; its exports: z');
});

test('exit 0 without a JSON line: said so, with the end of stdout; a flood: "stdout too large"', () => {
  expect(describePreflightFailure(raw({ stdout: 'hello\nworld\n' }), { timeoutS: 60 })).toBe(
    'no JSON line on stdout though the process exited 0: the module ended it before the preflight could answer, or wrote over its line (stdout ends with: "world")',
  );
  const flood = describePreflightFailure(raw({ stdout: 'x'.repeat(PREFLIGHT_STDOUT_LIMIT + 1) }), { timeoutS: 60 });
  expect(flood).toMatch(
    /^stdout too large: the module printed 1\.0 MiB while loading, and the preflight's JSON line is not at its end/,
  );
  expect(flood).not.toMatch(/exit code 0/);
});

test("a timeout, the memory limit, a non-zero exit without the preflight's words", () => {
  expect(
    describePreflightFailure(raw({ exitCode: null, timedOut: true, stdout: 'x'.repeat(2048) }), { timeoutS: 30 }),
  ).toBe('no answer within 30 s (the module did not finish loading, after 2 KiB on stdout)');
  expect(describePreflightFailure(raw({ exitCode: 137, oomKilled: true }), { timeoutS: 30 })).toBe(
    'killed for memory while loading the module',
  );
  expect(describePreflightFailure(raw({ exitCode: 3, stderr: 'bye\n' }), { timeoutS: 30 })).toBe(
    'the module ended the process with exit code 3 while loading (process.exit or a crash); stderr: bye',
  );
});
