// published-experiments.yml (GitHub issues 6 and 23): the seven published experiments load on a 2-CPU host,
// expand to the cells the findings cite, every claim names its post and quotes it, and the file stays inside its
// time budget. That each quote and quoted number is in its post is checked by `npm run check:quotes` (.ci/run),
// which needs the posts.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../../runner/config/load-config.js';
import { expandMatrix } from '../../../runner/plan/expand.js';

const FILE = fileURLToPath(new URL('../../../published-experiments.yml', import.meta.url));
const HOST = { cpus: 2, cpuIds: [0, 1] };

const cellsOf = (config, name) => {
  const experiment = config.experiments.find((candidate) => candidate.name === name);
  return { experiment, cells: expandMatrix(experiment.matrix, experiment) };
};

describe(path.basename(FILE), () => {
  test('loads on a 2-CPU host with one experiment (or a pair) per published claim', async () => {
    const config = await loadConfig(FILE, { host: HOST });
    expect(config.experiments.map((experiment) => experiment.name)).toEqual([
      'pbkdf2-waves',
      'argon2-pool-4',
      'argon2-pool-32',
      'argon2-pool-100',
      'http-cores-threads',
      'http-taskset',
      'idle-memory',
      'template-offload-80',
      'template-offload-5',
      'template-idle',
      'sum-1e9-post',
      'sum-1e7-post',
      'sum-1e7',
      'sum-1e9',
      'sum-1e9-closure',
      'sum-1e9-local',
      'cluster-size',
      'ab-one-request',
      'ab-two-requests',
      'ab-fast-route',
    ]);
  });

  test('expands to the cells of the published axes, scaled to 2 CPUs', async () => {
    const config = await loadConfig(FILE, { host: HOST });
    expect(cellsOf(config, 'pbkdf2-waves').cells.map((cell) => cell.uv_threadpool_size)).toEqual([1, 4, 8]);
    expect(cellsOf(config, 'argon2-pool-32').cells).toHaveLength(10);
    expect(cellsOf(config, 'http-cores-threads').cells).toHaveLength(16);
    expect(cellsOf(config, 'http-taskset').cells.map((cell) => cell.cpuset)).toEqual(['0', '0-1']);
    expect(cellsOf(config, 'idle-memory').cells).toHaveLength(12);
    const sum = cellsOf(config, 'sum-1e9');
    expect(sum.cells.map(({ workers, cluster }) => [workers, cluster])).toEqual([
      [0, 0],
      [0, 2],
      [1, 0],
    ]);
    expect(sum.experiment.params.sum).toEqual({ n: 1_000_000_000, tasks: 2, loop: 'blocks' });
    // The post's own pair of programs: closure shape on the main thread, local in the worker and the forks.
    for (const [name, n] of [
      ['sum-1e9-post', 1_000_000_000],
      ['sum-1e7-post', 10_000_000],
    ]) {
      const post = cellsOf(config, name);
      expect(post.cells.map(({ node, workers, cluster }) => [node, workers, cluster])).toEqual([
        [20, 0, 0],
        [20, 0, 2],
        [20, 1, 0],
        [24, 0, 0],
        [24, 0, 2],
        [24, 1, 0],
      ]);
      expect(post.experiment.params.sum).toEqual({ n, tasks: 2, loop: 'closure-main' });
    }
    // The loop shapes run the same cells.
    for (const [name, loop] of [
      ['sum-1e9-closure', 'closure'],
      ['sum-1e9-local', 'local'],
    ]) {
      const shaped = cellsOf(config, name);
      expect(shaped.cells.map(({ node, workers }) => [node, workers])).toEqual([
        [20, 0],
        [20, 1],
        [24, 0],
        [24, 1],
      ]);
      expect(shaped.experiment.params.sum).toEqual({ n: 1_000_000_000, tasks: 2, loop });
    }
    // The ab post's first tests: one request, two at once on 1 and 2 processes, and /fast beside a blocking one.
    expect(cellsOf(config, 'ab-two-requests').experiment.params.http).toMatchObject({
      load: 'burst',
      burst: { requests: 2 },
      pbkdf2: { iterations: 100000, keylen: 512, sync: false },
    });
    expect(cellsOf(config, 'ab-fast-route').experiment.params.http).toMatchObject({
      burst: { requests: 1, fast: true },
      pbkdf2: { sync: true },
    });
    expect(cellsOf(config, 'cluster-size').cells.map((cell) => [cell.uv_threadpool_size, cell.cluster])).toEqual([
      [1, 1],
      [1, 2],
      [1, 4],
      [1, 6],
    ]);
  });

  test('every claim names its post and compares one axis; controls are marked, the 32-hash and same-shape ones among them', async () => {
    const config = await loadConfig(FILE, { host: HOST });
    const claims = config.experiments.flatMap((experiment) =>
      (experiment.claims ?? []).map((claim) => ({ experiment: experiment.name, ...claim })),
    );
    expect(claims.length).toBeGreaterThanOrEqual(20);
    for (const claim of claims) {
      expect(Object.keys(claim.compare)).toHaveLength(1);
      expect(claim.post).toMatch(/^00[0-4]$/);
      // The post's own words: check:quotes finds them in the post.
      expect(claim.quote.length).toBeGreaterThan(0);
    }
    // Every published claim says what the post measured on, or why its metric is not the post's quantity; the
    // sum post's Node.js version and the template post's 16 cores among them.
    const published = claims.filter((claim) => !claim.control);
    expect(published.filter((claim) => !claim.conditions && !claim.not_comparable).map((claim) => claim.says)).toEqual([
      'Without cluster the busy server could do nothing else; with forks, /fast sent while / was busy was answered at once',
    ]);
    expect(claims.find((claim) => claim.experiment === 'sum-1e9-post').conditions.node).toEqual([20]);
    expect(claims.find((claim) => claim.experiment === 'template-offload-80').conditions.cpus).toBe(16);
    const controls = (name) =>
      claims.filter((claim) => claim.experiment === name).map((claim) => claim.control === true);
    expect(controls('argon2-pool-32')).toEqual([true, true, true]);
    for (const name of ['sum-1e9', 'sum-1e9-closure', 'sum-1e9-local'])
      expect(controls(name).every(Boolean)).toBe(true);
    expect(controls('sum-1e9-post')).toEqual([false, false]);
    // The sum post timed spawn and sum together; the ab post read ab's time per request, a burst's last answer, with
    // the first answer and the rate beside it (one metric a claim, the others never controls expecting "same").
    for (const name of ['sum-1e9-post', 'sum-1e7-post'])
      for (const claim of claims.filter((each) => each.experiment === name))
        expect(claim.metric).toBe('spawn_and_sum_ms');
    expect(
      claims
        .filter((claim) => claim.experiment === 'cluster-size')
        .map(({ metric, control, beside }) => [metric, control === true, beside]),
    ).toEqual([['burst_p50_ms', false, ['burst_first_p50_ms', 'requests_per_sec']]]);
    expect(config.experiments.find((experiment) => experiment.name === 'cluster-size').params.http).toMatchObject({
      load: 'burst',
      burst: { requests: 6 },
    });
  });

  test('every experiment repeats its cells at least 3 times', async () => {
    const config = await loadConfig(FILE, { host: HOST });
    for (const experiment of config.experiments) expect(experiment.repetitions).toBeGreaterThanOrEqual(3);
    const runs = config.experiments.reduce(
      (total, experiment) => total + expandMatrix(experiment.matrix, experiment).length * experiment.repetitions,
      0,
    );
    expect(runs).toBe(410);
  });
});
