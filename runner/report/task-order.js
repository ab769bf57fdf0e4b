// The order in which a run's tasks finished, and its waves: the tasks that finished together. A pool of 4
// serving 16 equal calls finishes them 4 at a time; on fewer CPUs than pool threads a wave can split, and
// tasks.csv is where that shows (the "16 pbkdf2 calls finish in waves" post).
//
// The rule for "together", in two steps. A run whose completions all fall within a fifth of its first
// completion's time is one wave (every task was in flight at once). Otherwise a new wave starts at every gap
// between consecutive completions longer than a quarter of the run's longest gap: the longest gap is about one
// wave's time, and tasks of one wave end well inside a quarter of it. The first completion is not a scale: it
// carries the run's start-up (a native addon loading), so gaps are compared with gaps.
import { isFirstPass } from '../domain/columns.js';

export const ONE_WAVE_SPAN = 0.2;
export const WAVE_GAP_SHARE = 0.25;

/**
 * @param {{ cell: string, repetition: number, end_ms: number, warmup?: boolean }[]} tasks  tasks.csv rows
 * @returns {{ cell: string, repetition: number, ends: number[], waves: number[] }[]}  per measured run, in
 *   cell then repetition order: end times ascending (ms from the run's start) and the wave sizes
 */
export function describeTaskOrder(tasks) {
  const runs = new Map();
  for (const task of tasks) {
    if (task.warmup || !isFirstPass(task) || !Number.isFinite(task.end_ms)) continue;
    const key = `${task.cell}\u0000${task.repetition}`;
    if (!runs.has(key)) runs.set(key, { cell: task.cell, repetition: task.repetition, ends: [] });
    runs.get(key).ends.push(task.end_ms);
  }
  return [...runs.values()]
    .map((run) => {
      const ends = run.ends.sort((a, b) => a - b);
      return { ...run, ends, waves: splitWaves(ends) };
    })
    .sort((a, b) => a.cell.localeCompare(b.cell) || a.repetition - b.repetition);
}

/** Sizes of the groups of ascending end times that finished together (the rule above). */
export function splitWaves(ends) {
  if (ends.length === 0) return [];
  if (ends.at(-1) - ends[0] <= ONE_WAVE_SPAN * ends[0]) return [ends.length];
  const gaps = ends.slice(1).map((end, index) => end - ends[index]);
  const limit = WAVE_GAP_SHARE * Math.max(...gaps);
  const waves = [1];
  for (const gap of gaps) {
    if (gap > limit) waves.push(1);
    else waves[waves.length - 1] += 1;
  }
  return waves;
}

/** "4+4+4+4 ×3, 1+3+4+4+4 ×2": each pattern of waves with how many runs showed it, the commonest first. */
export function summarizeWaves(runs) {
  const counts = new Map();
  for (const { waves } of runs) {
    const pattern = waves.join('+');
    counts.set(pattern, (counts.get(pattern) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([pattern, count]) => `${pattern} ×${count}`)
    .join(', ');
}
