// The preflight's static half: `plan` (and `run` before any engine) refuses a misspelled export at `export:`'s line
// and column with a did-you-mean from the module's real exports, a module that does not parse at its own line and
// column, an export that is no function, and TypeScript for a Node.js that cannot strip types; it says what only
// the engine can check. Through the API's plan(), on files written next to the fixtures.
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { plan } from '../../../runner/index.js';

const OWN = fileURLToPath(new URL('../../fixtures/own-code/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'user-code-'));
cpSync(OWN, dir, { recursive: true });

function writeConfig(name, experiment) {
  const file = join(dir, `${name}.yml`);
  writeFileSync(file, `experiments:\n  ${name}:\n    repetitions: 1\n${experiment}`);
  return file;
}

const script = (name, params, matrix = '{workload: [script]}') =>
  writeConfig(name, `    matrix: ${matrix}\n    params:\n      script: ${params}\n`);
const failure = (promise) =>
  promise.then(
    () => {
      throw new Error('expected plan() to refuse');
    },
    (error) => error,
  );

test("a misspelled export: exit 2 at `export:`, with a did-you-mean from the module's exports", async () => {
  const error = await failure(plan(script('typo', '{file: exports/esm.mjs, export: hashPasword}'), { seed: 1 }));
  expect(error.exitCode).toBe(2);
  expect(error.format()).toBe(
    `${join(dir, 'typo.yml')}:6:47: experiments.typo.params.script.export: exports/esm.mjs has no export \`hashPasword\`; its exports: Encoder, LIMIT, default, hashPassword, renamed, resize\n  did you mean \`hashPassword\`?`,
  );
});

test('CommonJS names and re-exported names are found; the plan lists the module and what only the engine checks', async () => {
  const planned = await plan(
    writeConfig(
      'found',
      `    matrix: {workload: [script, http]}
    params:
      script: {file: exports/reexport.mjs, export: hashPassword}
      http: {app: {file: exports/commonjs.cjs, export: handler}}
`,
    ),
    { seed: 1 },
  );
  expect(planned.user_code).toEqual([
    expect.objectContaining({
      file: 'exports/reexport.mjs',
      export: 'hashPassword',
      format: 'ES module',
      kind: 'function',
      engine: ['that it loads in the container', 'what a call returns (the user_<key> columns)'],
    }),
    expect.objectContaining({
      file: 'exports/commonjs.cjs',
      export: 'handler',
      format: 'CommonJS',
      kind: 'function',
      engine: ['that it loads in the container'],
    }),
  ]);
});

test('an export that is no function: exit 2', async () => {
  const error = await failure(plan(script('number', '{file: exports/esm.mjs, export: LIMIT}')));
  expect(error.message).toMatch(/export `LIMIT` is a number, not a function$/);
  const object = await failure(plan(script('object', '{file: exports/commonjs.cjs}')));
  expect(object.format()).toMatch(
    /object\.yml:6:22: experiments\.object\.params\.script: exports\/commonjs\.cjs: export `default` is an object, not a function/,
  );
});

test("a module that does not parse: exit 2 at the module's own line and column, pointing back to the experiments file", async () => {
  const error = await failure(plan(script('broken', '{file: exports/broken.js, export: broken}')));
  expect(error.format()).toMatch(
    new RegExp(
      `^${dir}/exports/broken\\.js:2:29: Unexpected token \\(read as an ES module, as the container's Node\\.js would load it\\)\\n  fix the module; it is \`file:\` of experiments\\.broken\\.params\\.script \\(.*broken\\.yml:6:\\d+\\)$`,
    ),
  );
});

test('exports made at run time: not refused, a warning, and the engine is said to check', async () => {
  const planned = await plan(script('dynamic', '{file: exports/dynamic.cjs, export: comptue}'));
  expect(planned.warnings).toEqual([
    expect.objectContaining({
      path: 'experiments.dynamic.params.script.export',
      message: expect.stringMatching(
        /shows no export `comptue` in its source .* it may be made when the module runs: `module\.exports = makeApi\(…\)`/,
      ),
    }),
  ]);
  expect(planned.user_code[0].engine).toContain(
    'what it makes at run time: `module.exports = makeApi(…)` (line 5): its keys are known when it runs',
  );
});

test('TypeScript: refused on Node.js 20 (no type stripping), passed on 24 with what only the engine can check', async () => {
  const on20 = await failure(
    plan(script('ts20', '{file: exports/typed.ts, export: typed}', '{workload: [script], node: [20, 24]}')),
  );
  expect(on20.format()).toMatch(
    /:6:\d+: experiments\.ts20\.params\.script\.file: .*typed\.ts is TypeScript, and the cell's Node\.js 20 cannot run it: Node\.js strips types by default from 23\.6 and 22\.18/,
  );
  const on22 = await plan(
    script('ts22', '{file: exports/typed.ts, export: typed}', '{workload: [script], node: [22]}'),
  );
  expect(on22.user_code[0].engine).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/Node\.js 22 is 22\.18\.0 or later/),
      expect.stringMatching(/no enum, namespace or parameter properties/),
    ]),
  );
});

test('a package that is in no node_modules under the mounted folder, and a native addon, are said', async () => {
  const missing = await plan(script('pkg', '{file: exports/uses-packages.mjs}'));
  expect(missing.warnings).toEqual([
    expect.objectContaining({
      message: expect.stringMatching(
        /imports `left-pad-not-installed`, which is in no node_modules inside the mounted folder/,
      ),
    }),
  ]);
  const addon = await plan(script('addon', '{file: addon/uses-addon.js}'));
  expect(addon.user_code[0].engine).toContain(
    'that the native addon `fake-addon` loads on Linux with Node.js 24 (a binary built on macOS or Windows does not)',
  );
});

test('a pool axis for code that never uses the pool: a warning at the axis; none where the code or its files call on it', async () => {
  const idle = await plan(
    script('idle-pool', '{file: pool/cpu-only.js}', '{workload: [script], uv_threadpool_size: [1, 4]}'),
    { seed: 1 },
  );
  expect(idle.warnings).toEqual([
    {
      file: join(dir, 'idle-pool.yml'),
      line: 4,
      column: 34,
      path: 'experiments.idle-pool.matrix.uv_threadpool_size',
      message:
        "uv_threadpool_size varies (1, 4), but no call in pool/cpu-only.js runs on libuv's pool (async crypto, zlib, fs, dns.lookup): the axis can change nothing your code does",
      hint: 'remove uv_threadpool_size from the matrix, or keep it to show that it changes nothing',
    },
  ]);
  const used = await plan(
    writeConfig(
      'used-pool',
      '    matrix: {workload: [http], uv_threadpool_size: [1, 4]}\n    params:\n      http: {app: {file: pool/handler.js}}\n',
    ),
    { seed: 1 },
  );
  // The http cell has no CPU budget, so its load generator shares the CPUs (plan-warnings.js): not this test's subject.
  expect(used.warnings.filter((warning) => !warning.message.includes('cannot be measured cleanly on this'))).toEqual(
    [],
  );
  // One pool size for every cell: nothing varies, nothing to say.
  const fixed = await plan(
    script('fixed-pool', '{file: pool/cpu-only.js}', '{workload: [script], uv_threadpool_size: [2]}'),
    { seed: 1 },
  );
  expect(fixed.warnings).toEqual([]);
});

describe("an http app's export: what the source can tell of its shape", () => {
  const app = (name, exportName) =>
    writeConfig(
      name,
      `    matrix: {workload: [http]}\n    params:\n      http: {app: {file: apps/shapes.mjs, export: ${exportName}}}\n`,
    );

  test('a server already listening (`x.listen(…)` exported): exit 2 at `export:`, the fix in the hint', async () => {
    const error = await failure(plan(app('listening', 'listening')));
    expect(error.exitCode).toBe(2);
    expect(error.format()).toMatch(
      /listening\.yml:6:\d+: experiments\.listening\.params\.http\.app\.export: apps\/shapes\.mjs: export `listening` is what listen\(\) returns, a server already listening: the lab listens itself .*\n {2}export the app itself \(or a function returning it\) and call listen\(\) only when the module is run directly$/,
    );
  });

  test('a class, or an object literal, is no app: exit 2 naming the shapes it could be', async () => {
    const error = await failure(plan(app('klass', 'AppClass')));
    expect(error.message).toBe(
      'apps/shapes.mjs: export `AppClass` is a class: the lab calls a factory, it does not construct one',
    );
    expect(error.hint).toMatch(
      /^export a \(req, res\) handler \(an Express app is one\), an http\.Server not listening, a Fastify instance, a Koa app or a Hapi server/,
    );
    const object = await failure(plan(app('settings', 'settings')));
    expect(object.message).toBe('apps/shapes.mjs: export `settings` is an object, not an app');
  });

  test('a factory passes; an instance made by a call passes too, its shape left to the preflight in the container', async () => {
    const planned = await plan(app('made', 'instance'));
    expect(planned.user_code[0].engine).toContain(
      "what `instance` is: a handler, a factory, or a framework's app (only building it tells)",
    );
    const factory = await plan(app('factory', 'build'));
    expect(factory.user_code[0].kind).toBe('function');
  });
});
