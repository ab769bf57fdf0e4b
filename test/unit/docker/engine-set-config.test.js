// Engines in the config: the top-level `engines:` list, the `engine` axis, and which checks wait for the engines.
import { chooseEngineNames } from '../../../runner/docker/engine-set.js';
import { DEFAULT_NODE_MAJOR } from '../../../runner/domain/axes.js';
import { parseYaml, validateConfig } from '../../../runner/config/load-config.js';
import { planExperiments } from '../../../runner/plan/plan-runs.js';

const HOST = { cpus: 2, cpuIds: [0, 1] };

function load(text, host = HOST) {
  const { raw, locate } = parseYaml(text, 'x.yml');
  return validateConfig(raw, { file: 'x.yml', locate, host });
}

const BIG = 'experiments:\n  e:\n    matrix: {workload: [pbkdf2], cpus: [32]}\n';

describe('which CPUs the config is checked against', () => {
  test('without engines, this machine (as always)', () => {
    expect(() => load(BIG)).toThrow(/expected at most 2 \(this host's CPU count\), found 32/);
  });

  test("with engines named in the file, or host null (--engine, --slots), the engines' own facts, later", () => {
    expect(load(`engines: [server]\n${BIG}`).engines).toEqual(['server']);
    expect(() =>
      load('experiments:\n  e:\n    matrix: {workload: [pbkdf2], engine: [server], cpus: [32]}\n'),
    ).not.toThrow();
    expect(() => load(BIG, null)).not.toThrow();
  });

  test('`engines:` is a non-empty list of names without repeats', () => {
    expect(() => load(`engines: []\n${BIG}`, null)).toThrow(
      expect.objectContaining({ path: 'engines', message: '`engines` is empty; expected at least 1 value' }),
    );
    expect(() => load(`engines: [a, a]\n${BIG}`, null)).toThrow(
      expect.objectContaining({ path: 'engines[1]', line: 1, message: expect.stringMatching(/duplicate value a/) }),
    );
  });
});

describe('chooseEngineNames', () => {
  const plansOf = (config) => planExperiments(config, { defaultNodeMajor: DEFAULT_NODE_MAJOR });
  const axis = load('experiments:\n  e:\n    matrix: {workload: [pbkdf2], engine: [laptop, server]}\n');
  const listed = load(`engines: [server1, server2]\n${BIG}`, null);

  test('--engine, else `engines:`, else the `engine` axis values, else default', () => {
    expect(chooseEngineNames({ flags: ['x', 'x', 'y'], config: listed, plans: plansOf(listed) })).toEqual(['x', 'y']);
    expect(chooseEngineNames({ flags: [], config: listed, plans: plansOf(listed) })).toEqual(['server1', 'server2']);
    expect(chooseEngineNames({ flags: [], config: axis, plans: plansOf(axis) })).toEqual(['laptop', 'server']);
    const plain = load('experiments:\n  e:\n    matrix: {workload: [pbkdf2]}\n');
    expect(chooseEngineNames({ flags: [], config: plain, plans: plansOf(plain) })).toEqual(['default']);
  });

  test('an axis value that is not one of the engines: exit 2 at its place in the file', () => {
    let error;
    try {
      chooseEngineNames({ flags: ['laptop'], config: axis, plans: plansOf(axis) });
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({
      code: 'ERR_CONFIG_INVALID',
      exitCode: 2,
      line: 3,
      path: 'experiments.e.matrix.engine[1]',
    });
    expect(error.message).toBe('engine `server` is not one of the engines of this matrix (laptop)');
  });
});
