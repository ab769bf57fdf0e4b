// Which base image a Node major is built on, against a fake engine: what it has, whether it can pull.
import { formatOfficialImage, resolveBaseImage } from '../../../../runner/docker/images/base-image-choice.js';
import { pickImageChoice } from '../../../../runner/plan/image-choice.js';

function fakeEngine({ has = {}, pullable = [], root = false, localBase = false } = {}) {
  const images = new Map(Object.entries(has));
  const calls = [];
  return {
    calls,
    inspect: async (reference) => images.get(reference),
    pull: async (reference) => {
      calls.push(`pull ${reference}`);
      if (!pullable.includes(reference))
        throw new Error('(HTTP code 500) server error - Get "https://registry-1.docker.io/v2/": no such host');
      images.set(reference, `sha256:pulled-${reference}`);
    },
    buildLocal: async () => {
      calls.push('build local');
      return { tag: 'node-threads-lab/base:node24.21.0-x', id: 'sha256:local', nodeVersion: '24.21.0' };
    },
    hasLocal: async () => localBase,
    canBuildLocal: async () => root,
    fixCommand: (major) => `sudo npm run images -- ${major}`,
  };
}

describe('resolveBaseImage', () => {
  test('auto: the official image the engine has, nothing pulled or built', async () => {
    const engine = fakeEngine({ has: { 'node:24-bookworm-slim': 'sha256:official' } });
    expect(await resolveBaseImage(engine, { major: 24, choice: 'auto' })).toEqual({
      source: 'official',
      tag: 'node:24-bookworm-slim',
      id: 'sha256:official',
    });
    expect(engine.calls).toEqual([]);
  });

  test('auto: pulls the official image when the engine can', async () => {
    const engine = fakeEngine({ pullable: ['node:22-bookworm-slim'] });
    expect(await resolveBaseImage(engine, { major: 22, choice: 'auto' })).toMatchObject({
      source: 'official',
      tag: 'node:22-bookworm-slim',
    });
    expect(engine.calls).toEqual(['pull node:22-bookworm-slim']);
  });

  test('auto: no official image and no registry → the offline base, saying why', async () => {
    const engine = fakeEngine({ root: true });
    const base = await resolveBaseImage(engine, { major: 24, choice: 'auto' });
    expect(base).toMatchObject({ source: 'local', tag: 'node-threads-lab/base:node24.21.0-x', nodeVersion: '24.21.0' });
    expect(base.note).toMatch(
      /^node:24-bookworm-slim unavailable \(Get "https:\/\/registry-1\.docker\.io\/v2\/": no such host\)$/,
    );
    expect(engine.calls).toEqual(['pull node:24-bookworm-slim', 'build local']);
  });

  test('auto without root and without any image: one message with the one command that fixes it', async () => {
    const engine = fakeEngine();
    await expect(resolveBaseImage(engine, { major: 24, choice: 'auto' })).rejects.toMatchObject({
      code: 'ERR_IMAGE_UNAVAILABLE',
      exitCode: 2,
      message: expect.stringContaining(
        'No image with Node 24: the engine has no node:24-bookworm-slim and cannot pull it',
      ),
      hint: 'run once: sudo npm run images -- 24',
    });
    expect(engine.calls).not.toContain('build local');
  });

  test('auto with an offline base built before: used without trying to pull on every start', async () => {
    const engine = fakeEngine({ localBase: true, pullable: ['node:24-bookworm-slim'] });
    expect(await resolveBaseImage(engine, { major: 24, choice: 'auto' })).toMatchObject({
      source: 'local',
      note: 'node:24-bookworm-slim is not on the engine (`docker pull node:24-bookworm-slim` to use it)',
    });
    expect(engine.calls).toEqual(['build local']);
  });

  test('official: pulled even where an offline base exists', async () => {
    const engine = fakeEngine({ localBase: true, pullable: ['node:24-bookworm-slim'] });
    expect(await resolveBaseImage(engine, { major: 24, choice: 'official' })).toMatchObject({ source: 'official' });
  });

  test('official: refused when the engine cannot give it, never built', async () => {
    const engine = fakeEngine({ root: true });
    await expect(resolveBaseImage(engine, { major: 24, choice: 'official' })).rejects.toMatchObject({
      code: 'ERR_IMAGE_UNAVAILABLE',
      message: expect.stringContaining('no node:24-bookworm-slim'),
    });
    expect(engine.calls).not.toContain('build local');
  });

  test('local: the offline base, the engine is not asked for the official one', async () => {
    const engine = fakeEngine({ has: { 'node:24-bookworm-slim': 'sha256:official' }, root: true });
    expect(await resolveBaseImage(engine, { major: 24, choice: 'local' })).toMatchObject({
      source: 'local',
      id: 'sha256:local',
    });
    expect(engine.calls).toEqual(['build local']);
  });

  test('local without root and without the offline base: the one command that fixes it', async () => {
    await expect(resolveBaseImage(fakeEngine(), { major: 22, choice: 'local' })).rejects.toMatchObject({
      code: 'ERR_IMAGE_UNAVAILABLE',
      hint: 'run once: sudo npm run images -- 22',
    });
  });

  test('a named image: used when present or pullable, refused otherwise', async () => {
    expect(
      await resolveBaseImage(fakeEngine({ has: { 'me/node:24': 'sha256:mine' } }), { major: 24, choice: 'me/node:24' }),
    ).toEqual({ source: 'named', tag: 'me/node:24', id: 'sha256:mine' });
    await expect(
      resolveBaseImage(fakeEngine({ root: true }), { major: 24, choice: 'me/node:24' }),
    ).rejects.toMatchObject({ code: 'ERR_IMAGE_UNAVAILABLE', message: expect.stringContaining('me/node:24') });
  });

  test('the official name follows a template (a mirror, or a test-only name)', async () => {
    expect(formatOfficialImage(26, 'mirror.example/library/node:{major}-bookworm-slim')).toBe(
      'mirror.example/library/node:26-bookworm-slim',
    );
    const engine = fakeEngine({ has: { 'lab-test/node:24': 'sha256:standin' } });
    expect(
      await resolveBaseImage(engine, { major: 24, choice: 'auto', template: 'lab-test/node:{major}' }),
    ).toMatchObject({ source: 'official', tag: 'lab-test/node:24' });
  });
});

test('pickImageChoice: one choice for every major, or per major with auto for the rest', () => {
  expect(pickImageChoice(undefined, 24)).toBe('auto');
  expect(pickImageChoice('local', 20)).toBe('local');
  expect(pickImageChoice({ 20: 'local', 24: 'me/node:24' }, 24)).toBe('me/node:24');
  expect(pickImageChoice({ 20: 'local' }, 26)).toBe('auto');
});
