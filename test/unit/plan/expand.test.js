import { expandMatrix } from '../../../runner/plan/expand.js';
import { computeCellId } from '../../../runner/cells/cell-id.js';

describe('expandMatrix', () => {
  test('cartesian product in a stable order: the first axis varies slowest', () => {
    const cells = expandMatrix({ cpus: [1, 2], uv_threadpool_size: [1, 4] });
    expect(cells).toEqual([
      { cpus: 1, uv_threadpool_size: 1 },
      { cpus: 1, uv_threadpool_size: 4 },
      { cpus: 2, uv_threadpool_size: 1 },
      { cpus: 2, uv_threadpool_size: 4 },
    ]);
  });

  test('size is the product of the axis lengths', () => {
    const cells = expandMatrix({ workload: ['pbkdf2', 'argon2'], cpus: [0.5, 1, 2], uv_threadpool_size: [1, 2, 4, 8] });
    expect(cells).toHaveLength(24);
    expect(new Set(cells.map((cell) => JSON.stringify(cell))).size).toBe(24);
  });

  test('exclude drops every combination that matches all keys of an entry', () => {
    const cells = expandMatrix(
      { cpus: [1, 2], uv_threadpool_size: [1, 8] },
      { exclude: [{ cpus: 1, uv_threadpool_size: 8 }] },
    );
    expect(cells).toEqual([
      { cpus: 1, uv_threadpool_size: 1 },
      { cpus: 2, uv_threadpool_size: 1 },
      { cpus: 2, uv_threadpool_size: 8 },
    ]);
  });

  test('a partial exclude entry drops all combinations it matches', () => {
    const cells = expandMatrix({ cpus: [1, 2], workers: [0, 2] }, { exclude: [{ cpus: 1 }] });
    expect(cells).toEqual([
      { cpus: 2, workers: 0 },
      { cpus: 2, workers: 2 },
    ]);
  });

  // The example from GitHub's documentation of strategy.matrix include semantics.
  test('include follows GitHub Actions semantics exactly', () => {
    const cells = expandMatrix(
      { fruit: ['apple', 'pear'], animal: ['cat', 'dog'] },
      {
        include: [
          { color: 'green' },
          { color: 'pink', animal: 'cat' },
          { fruit: 'apple', shape: 'circle' },
          { fruit: 'banana' },
          { fruit: 'banana', animal: 'cat' },
        ],
      },
    );
    expect(cells).toEqual([
      { fruit: 'apple', animal: 'cat', color: 'pink', shape: 'circle' },
      { fruit: 'apple', animal: 'dog', color: 'green', shape: 'circle' },
      { fruit: 'pear', animal: 'cat', color: 'pink' },
      { fruit: 'pear', animal: 'dog', color: 'green' },
      { fruit: 'banana' },
      { fruit: 'banana', animal: 'cat' },
    ]);
  });

  test('exclude applies before include, so an include can bring an excluded combination back', () => {
    const cells = expandMatrix({ cpus: [1, 2] }, { exclude: [{ cpus: 1 }], include: [{ cpus: 1, cpuset: '0' }] });
    expect(cells).toEqual([{ cpus: 2 }, { cpus: 1, cpuset: '0' }]);
  });

  test('does not mutate its input', () => {
    const matrix = { cpus: [1] };
    const include = [{ workers: 2 }];
    expandMatrix(matrix, { include });
    expect(matrix).toEqual({ cpus: [1] });
    expect(include).toEqual([{ workers: 2 }]);
  });

  test('an empty matrix expands to nothing', () => {
    expect(expandMatrix({})).toEqual([]);
  });
});

describe('computeCellId', () => {
  test('same values give the same id regardless of key order', () => {
    expect(computeCellId({ values: { cpus: 1, workload: 'pbkdf2' }, params: { a: 1, b: 2 } })).toBe(
      computeCellId({ params: { b: 2, a: 1 }, values: { workload: 'pbkdf2', cpus: 1 } }),
    );
  });

  test('different values give different ids, and 1 differs from "1"', () => {
    const ids = new Set([
      computeCellId({ values: { cpus: 1 } }),
      computeCellId({ values: { cpus: 2 } }),
      computeCellId({ values: { cpus: '1' } }),
    ]);
    expect(ids.size).toBe(3);
  });

  test('is a short hex id, pinned so results folders stay comparable across versions', () => {
    // If this changes, every earlier results folder stops matching: resume and compare break.
    expect(computeCellId({ values: { cpus: 1, workload: 'pbkdf2' } })).toBe('31c6a1ce5f');
  });
});
