// Every relative link of the README and docs/ points at a file that exists (pages move; links must follow).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DOC_FILES } from '../../support/doc-examples.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

test('relative links resolve', () => {
  const broken = DOC_FILES.flatMap((file) =>
    [...readFileSync(join(ROOT, file), 'utf8').matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
      .map(([, target]) => target)
      .filter((target) => !/^[a-z]+:/.test(target))
      .filter((target) => !existsSync(join(ROOT, dirname(file), target)))
      .map((target) => `${file} → ${target}`),
  );
  expect(broken).toEqual([]);
});
