// What each knob is in production: data in runner/domain/axes.js (`production`), which the advice can quote, and
// the table of docs/own-code.md, which says the same words.
import { readFileSync } from 'node:fs';
import { AXES, ENV_AXIS, describeProduction, productionShape } from '../../../runner/domain/axes.js';

const DOC = readFileSync(new URL('../../../docs/own-code.md', import.meta.url), 'utf8');

test("every axis's production words, for every shape they name, are in docs/own-code.md's table (N for the value)", () => {
  const entries = [...Object.entries(AXES), ['NAME', ENV_AXIS]].filter(([, axis]) => axis.production);
  expect(entries.map(([name]) => name).sort()).toEqual(
    ['NAME', 'cluster', 'cpus', 'cpuset', 'engine', 'node', 'uv_threadpool_size', 'workers'].sort(),
  );
  for (const [name, axis] of entries) {
    for (const shape of Object.keys(axis.production)) {
      const { words } = describeProduction(name, 'N', shape === 'default' ? 'tasks' : shape);
      expect({ name, shape, inDoc: DOC.includes(`| ${words} |`) }).toEqual({ name, shape, inDoc: true });
    }
  }
});

test('the value fills the words; a knob turned off, or an axis without a production meaning, has none', () => {
  expect(describeProduction('uv_threadpool_size', 8)).toEqual({
    words:
      "UV_THREADPOOL_SIZE=8 in the service's environment (Dockerfile `ENV`, the Deployment's `env:`, Compose `environment:`), read once when the pool first starts",
    twin: true,
  });
  expect(describeProduction('WEB_CONCURRENCY', 2, 'start')).toEqual({
    words: "WEB_CONCURRENCY=2 in the service's environment",
    twin: true,
  });
  expect(describeProduction('cluster', 2, 'app').words).toMatch(
    /^2 processes sharing the port .* PM2 cluster mode with `instances: 2`/,
  );
  expect(describeProduction('workers', 2, 'app')).toMatchObject({
    twin: false,
    words: expect.stringMatching(/^no production twin/),
  });
  expect(describeProduction('workers', 0, 'http')).toBeNull();
  expect(describeProduction('workload', 'http')).toBeNull();
});

test("a cell's shape: the lab's server, your app, your start command, your function, a command, a built-in workload", () => {
  expect(productionShape('http', { work: 'pbkdf2' })).toBe('http');
  expect(productionShape('http', { app: { file: '/lab/user/app.js' } })).toBe('app');
  expect(productionShape('http', { start: 'node src/server.js' })).toBe('start');
  expect(productionShape('script', {})).toBe('script');
  expect(productionShape('command', {})).toBe('command');
  expect(productionShape('pbkdf2')).toBe('tasks');
});
