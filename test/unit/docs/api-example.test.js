// docs/api.md's first example runs as written: `node-threads-lab` imported by its name (a package may import itself
// through its `exports`), from the checkout's folder, on the committed results folders.
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { readApiExamples } from '../../support/doc-examples.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

test('the plan, judge and compare example prints what those functions return', async () => {
  const [example] = readApiExamples();
  expect(example).toContain("from 'node-threads-lab'");
  const { stdout, stderr, exitCode } = await execa('node', ['--input-type=module', '-e', example], {
    cwd: ROOT,
    reject: false,
  });
  expect(stderr).toBe('');
  expect(exitCode).toBe(0);
  const lines = stdout.split('\n');
  expect(lines[0]).toBe('24 runs in pool-vs-cores');
  expect(lines[1]).toMatch(/^holds - HOLDS: claimed: "2 CPUs cut argon2 time by more than 30%"/);
  expect(lines.slice(2, -1)).toEqual([
    expect.stringMatching(/^pbkdf2 wall_ms: cpus moves it most/),
    expect.stringMatching(/^argon2 wall_ms: cpus moves it most/),
  ]);
  expect(lines.at(-1)).toBe('gate passed: 16 comparisons, 0 regressions');
});
