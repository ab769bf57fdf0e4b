// Which run's task waves the report opens on: the one that shows waves best. Tasks are submitted together and
// finish in groups when a pool of k threads shares them: 16 tasks on a pool of 4 end in 4 waves of 4. A run whose
// tasks end one by one (a pool of 1) or all at once (a pool of 16) shows no waves; the most telling run has
// several waves of several tasks each.

/**
 * The waves of one run: its tasks' completion times split wherever the gap between two consecutive ones is more
 * than half the largest such gap (the gap between waves) and more than a twentieth of the mean time per task (the
 * span over the task count: no split in a noise of near-equal ends).
 * @param {{ start: number, end: number }[]} tasks
 * @returns {number[]}  the size of each wave, in order
 */
export function countWaves(tasks) {
  const ends = tasks
    .map((task) => task.end)
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  if (ends.length === 0) return [];
  const first = Math.min(...tasks.map((task) => task.start).filter(Number.isFinite), ends[0]);
  const gaps = ends.slice(1).map((end, i) => end - ends[i]);
  const gap = Math.max(Math.max(0, ...gaps) / 2, (ends.at(-1) - first) / ends.length / 20);
  const waves = [1];
  for (let i = 1; i < ends.length; i++) {
    if (ends[i] - ends[i - 1] > gap) waves.push(1);
    else waves[waves.length - 1] += 1;
  }
  return waves;
}

/**
 * How clearly a run shows waves: min(waves, tasks in a wave), so 4 waves of 4 beat 2 of 8 and 16 of 1, times the
 * share of tasks in waves of the most common size, so regular waves beat ragged ones. 0 for fewer than 2 waves.
 */
export function scoreWaves(waves) {
  if (waves.length < 2) return 0;
  const tasks = waves.reduce((sum, size) => sum + size, 0);
  const counts = new Map();
  for (const size of waves) counts.set(size, (counts.get(size) ?? 0) + 1);
  const [modal, times] = [...counts].sort(([a, x], [b, y]) => y - x || b - a)[0];
  const middle = [...waves].sort((a, b) => a - b)[Math.floor(waves.length / 2)];
  return Math.min(waves.length, middle) * ((modal * times) / tasks);
}

/**
 * The index of the run that shows waves best (scoreWaves); ties go to the run with more tasks, then the first.
 * @param {{ tasks: { start: number, end: number }[] }[]} runs
 */
export function chooseWavesRun(runs) {
  let best = 0;
  let bestScore = -1;
  runs.forEach((run, index) => {
    const score = scoreWaves(countWaves(run.tasks)) + run.tasks.length * 1e-9;
    if (score > bestScore) [best, bestScore] = [index, score];
  });
  return best;
}
