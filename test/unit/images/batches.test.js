// Batch arithmetic shared by the image and the runner (images/workload/lib/batches.js).
import { aggregateBatches, listBatchNumbers, measureBatchWall } from '../../../images/workload/lib/batches.js';

test('batches are numbered warm-ups first, up to 0, then 1 … count', () => {
  expect(listBatchNumbers({ count: 3, warmup: 1 })).toEqual([0, 1, 2, 3]);
  expect(listBatchNumbers({ count: 2, warmup: 3 })).toEqual([-2, -1, 0, 1, 2]);
  expect(listBatchNumbers({ count: 1, warmup: 0 })).toEqual([1]);
});

test("a batch's wall runs from its first start to its last end", () => {
  expect(
    measureBatchWall([
      { start: 10, end: 30 },
      { start: 12, end: 55 },
      { start: 11, end: 40 },
    ]),
  ).toBe(45);
});

test("the run's value is the median (middle, or the mean of the two middles) or the mean of its batches", () => {
  expect(aggregateBatches([300, 100, 200])).toBe(200);
  expect(aggregateBatches([400, 100, 300, 200], 'median')).toBe(250);
  expect(aggregateBatches([100, 200, 600], 'mean')).toBe(300);
  // One slow batch moves the median not at all and the mean by a third of its excess.
  expect(aggregateBatches([100, 101, 190])).toBe(101);
  expect(aggregateBatches([5])).toBe(5);
  expect(aggregateBatches([])).toBeNull();
});
