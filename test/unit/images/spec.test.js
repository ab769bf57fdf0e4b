import { parseSpec } from '../../../images/workload/spec.js';

const spec = (value) => parseSpec(JSON.stringify(value));

describe('workload LAB_SPEC parsing', () => {
  test('missing params and counts take the defaults of the workload', () => {
    expect(spec({ workload: 'pbkdf2' })).toEqual({
      workload: 'pbkdf2',
      params: { tasks: 16, iterations: 100000, keylen: 512, digest: 'sha512', sync: false },
      workers: 0,
      cluster: 0,
    });
    expect(spec({ workload: 'argon2', params: { tasks: 2 }, workers: 3, cluster: 1 })).toEqual({
      workload: 'argon2',
      params: { tasks: 2, memoryCost: 65536, timeCost: 3, parallelism: 4 },
      workers: 3,
      cluster: 1,
    });
  });

  test('speed_probe and batches are carried only when given; batches take their defaults key by key', () => {
    expect(spec({ workload: 'sum', speed_probe: false })).not.toHaveProperty('speed_probe');
    expect(spec({ workload: 'sum', speed_probe: true, batches: { count: 3 } })).toMatchObject({
      speed_probe: true,
      batches: { count: 3, warmup: 1, aggregate: 'median' },
    });
    expect(spec({ workload: 'argon2', batches: { count: 2, warmup: 0, aggregate: 'mean' } }).batches).toEqual({
      count: 2,
      warmup: 0,
      aggregate: 'mean',
    });
  });

  test.each([
    [undefined, /LAB_SPEC is not set/],
    ['{"workload":', /not valid JSON/],
    ['[1]', /expected a JSON object/],
    [
      '{"workload":"scrypt"}',
      /LAB_SPEC\.workload: expected one of pbkdf2, argon2, http, idle, sum, script, command, got "scrypt"/,
    ],
    ['{"workload":"pbkdf2","worker":2}', /LAB_SPEC\.worker: not a known key/],
    ['{"workload":"pbkdf2","workers":-1}', /LAB_SPEC\.workers: expected a whole number/],
    ['{"workload":"pbkdf2","cluster":1.5}', /LAB_SPEC\.cluster: expected a whole number/],
    ['{"workload":"pbkdf2","params":[]}', /LAB_SPEC\.params: expected an object/],
    ['{"workload":"pbkdf2","speed_probe":1}', /LAB_SPEC\.speed_probe: expected true or false/],
    ['{"workload":"pbkdf2","batches":3}', /LAB_SPEC\.batches: expected an object/],
    ['{"workload":"pbkdf2","batches":{"runs":3}}', /LAB_SPEC\.batches\.runs: not a known key/],
    ['{"workload":"pbkdf2","batches":{"count":1.5}}', /LAB_SPEC\.batches\.count: expected a whole number ≥ 1/],
    [
      '{"workload":"pbkdf2","batches":{"count":2,"warmup":-1}}',
      /LAB_SPEC\.batches\.warmup: expected a whole number ≥ 0/,
    ],
    [
      '{"workload":"pbkdf2","batches":{"count":2,"aggregate":"min"}}',
      /LAB_SPEC\.batches\.aggregate: expected one of median, mean/,
    ],
    ['{"workload":"http","batches":{"count":2}}', /LAB_SPEC\.batches: this workload cannot run in batches/],
    ['{"workload":"pbkdf2","params":{"memoryCost":1024}}', /params\.memoryCost: not a parameter of pbkdf2/],
    ['{"workload":"pbkdf2","params":{"tasks":0}}', /params\.tasks: expected a whole number ≥ 1, got 0/],
    ['{"workload":"pbkdf2","params":{"iterations":"1000"}}', /params\.iterations: expected a whole number ≥ 1/],
    ['{"workload":"pbkdf2","params":{"sync":"yes"}}', /params\.sync: expected a boolean/],
    ['{"workload":"pbkdf2","params":{"digest":"sha513"}}', /params\.digest: expected a digest/],
    [
      '{"workload":"argon2","params":{"memoryCost":1024,"parallelism":200}}',
      /memoryCost: expected at least 8 KiB per lane/,
    ],
  ])('%s is refused with a message naming the key', (text, message) => {
    expect(() => parseSpec(text)).toThrow(message);
    expect(() => parseSpec(text)).toThrow(expect.objectContaining({ code: 'ERR_SPEC_INVALID', exitCode: 2 }));
  });
});
