// The order in which a run's tasks finished, and its waves: the tasks that finished together. A pool of 4
// serving 16 equal calls finishes them 4 at a time; on fewer CPUs than pool threads a wave can split, and
// tasks.csv is where that shows (the "16 pbkdf2 calls finish in waves" post).
//
// The rule for "together": a new wave starts where the time since the previous completion is more than half
// the run's mean spacing (the last end ÷ the number of tasks). One at a time, every gap is about one mean
// spacing, so each task is a wave of its own; in waves of 4, the gaps inside a wave are a small part of it.
export const WAVE_GAP_SHARE = 0.5;

/**
 * @param {{ cell: string, repetition: number, end_ms: number, warmup?: boolean }[]} tasks  tasks.csv rows
 * @returns {{ cell: string, repetition: number, ends: number[], waves: number[] }[]}  per measured run, in
 *   cell then repetition order: end times ascending (ms from the run's start) and the wave sizes
 */
export function describeTaskOrder(tasks) {
  const runs = new Map();
  for (const task of tasks) {
    if (task.warmup || !Number.isFinite(task.end_ms)) continue;
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
  const gap = (WAVE_GAP_SHARE * ends.at(-1)) / ends.length;
  const waves = [1];
  for (let index = 1; index < ends.length; index++) {
    if (ends[index] - ends[index - 1] > gap) waves.push(1);
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
