// The framework apps docs/own-code.md shows are the files test/integration/frameworks.test.js installs the real
// frameworks for and runs under cluster and workers: each ```js block of "Your framework" is one of them, whole.
import { readdirSync, readFileSync } from 'node:fs';

const ROOT = new URL('../../../', import.meta.url);
const doc = readFileSync(new URL('docs/own-code.md', ROOT), 'utf8');
const section = doc.slice(doc.indexOf('### Your framework'), doc.indexOf('## Your own entry point'));
const blocks = [...section.matchAll(/```js\n([\s\S]*?)```/g)].map(([, code]) => code);
const fixtures = new URL('test/fixtures/frameworks/', ROOT);
const apps = readdirSync(fixtures).filter((name) => /^(fastify|express|koa|hapi)-app\.js$/.test(name));

test('each framework example is a fixture app, whole, and every fixture app is shown', () => {
  expect(apps.sort()).toEqual(['express-app.js', 'fastify-app.js', 'hapi-app.js', 'koa-app.js']);
  const shown = blocks.map((code) => apps.find((name) => readFileSync(new URL(name, fixtures), 'utf8') === code));
  expect(shown.every(Boolean)).toBe(true);
  expect([...shown].sort()).toEqual(apps.sort());
});
