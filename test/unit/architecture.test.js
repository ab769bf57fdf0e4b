// The folders are the pipeline (docs/architecture.md): config → plan → docker (run) → collect → results →
// report, over shared tables. A module imports its own stage, earlier stages and the shared layer, never a
// later stage; the image's code is layered the same way and never imports the runner. Read from the import lines,
// so a change that breaks the direction fails here rather than in a review.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// Every folder of runner/ and images/ is named here, itself (a folder's modules belong to the layer that names the
// folder, not to its parent's): a new folder fails 'every folder has a layer' until it is placed. A file named by
// itself belongs to its own layer, not its folder's (runner/errors.js; the image's entry files and the small
// modules beside them, which sit between its folders).
const LAYERS = [
  ['runner/errors.js'],
  // The image's code (images/workload/, copied into the workload image): pure helpers both sides need (lib/), what a
  // container reads of itself (probe/), the user's module, the http server and load generator, the workload modules,
  // how tasks spread over threads and processes, and the entry files that start it all.
  ['images/workload/lib/', 'images/workload/clock.js', 'images/workload/workload-error.js'],
  ['images/workload/probe/', 'images/workload/user/', 'images/workload/result.js', 'images/workload/spec-errors.js'],
  ['images/workload/http/', 'images/workload/cgroup-watch.js'],
  ['images/workload/workloads/', 'images/workload/preflight.js'],
  ['images/workload/spread/', 'images/workload/spec.js'],
  [
    'images/',
    'images/workload/',
    'images/workload/run.js',
    'images/workload/loader.js',
    'images/workload/prepare-native.js',
  ],
  ['runner/domain/', 'runner/stats/'],
  // What a cell is (its shape, id, axes, the budget axes, a claim's pairs), below every room that reads cells; then
  // the capacity model and the verdicts, shared like stats by the stages above.
  ['runner/cells/'],
  ['runner/model/'],
  ['runner/verdicts/'],
  ['runner/config/', 'runner/config/diagnostics/'],
  // plan/ turns a config into runs; user-code/ reads the user's own modules before any run (the preflight's static
  // half, and what in them runs on the libuv pool); manifests/ reads the service's deployment files (Kubernetes,
  // Compose) for init's CPU budgets and memory limit; rounds/ decides what runs next from the rows so far (re-runs,
  // adaptive rounds, the race).
  // estimate/: how long a plan will take (earlier folders' run times, the shipped figures, the model).
  ['runner/estimate/'],
  ['runner/plan/', 'runner/user-code/', 'runner/manifests/'],
  // service/: one description of a service from its folder (its deployment's serving container, its pool calls, the
  // knobs its code reads, its entry point, the request from the built app's route table), over manifests/ and
  // user-code/; init turns it into the file.
  ['runner/service/'],
  ['runner/rounds/'],
  // The backend contract (what the run loop asks of whatever runs a container) and its fake; docker/ implements it.
  ['runner/backend/'],
  // The run stage in three rooms, one way: runs (one container) ← engines (reaching, making, probing an engine) ←
  // images (base and workload images, the rootfs builder) ← the door (engine-set.js, session.js).
  ['runner/docker/runs/'],
  ['runner/docker/engines/'],
  ['runner/docker/images/', 'runner/docker/images/rootfs/'],
  // kubernetes/: the Kubernetes backend, beside docker/'s door (it builds images on Docker and reuses its labels).
  ['runner/docker/', 'runner/kubernetes/'],
  ['runner/collect/'],
  ['runner/results/'],
  ['runner/report/', 'runner/report/assets/'],
  // The run: the loop over experiments and rounds, each run dispatched to a free lane (run/); the API (index.js and
  // api/) and the command line over it (cli.js and commands/).
  ['runner/run/'],
  ['runner/', 'runner/api/', 'runner/commands/'],
];

const folderOf = (path) => `${dirname(path)}/`;

function layerOf(path) {
  const own = LAYERS.findIndex((entries) => entries.includes(path));
  return own !== -1 ? own : LAYERS.findIndex((entries) => entries.includes(folderOf(path)));
}

function listFolders(dir) {
  return [
    `${dir}/`,
    ...readdirSync(join(ROOT, dir), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules')
      .flatMap((entry) => listFolders(`${dir}/${entry.name}`)),
  ];
}

function listModules(dir) {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : listModules(path);
    return entry.name.endsWith('.js') ? [path] : [];
  });
}

// Import lines and dynamic imports; a JSDoc type (`{import('../spec.js').Spec}`) names a shape, loads nothing, and
// is left out.
function importsOf(path) {
  const text = readFileSync(join(ROOT, path), 'utf8');
  return [...text.matchAll(/(?:from\s*|import\(\s*)['"](\.{1,2}\/[^'"]+)['"](?!\s*\)\s*\.)/g)].map(([, spec]) =>
    relative(ROOT, normalize(join(ROOT, dirname(path), spec))),
  );
}

const edges = [...listModules('runner'), ...listModules('images')].flatMap((from) =>
  importsOf(from).map((to) => ({ from, to })),
);

test('every folder of runner/ and images/ has a layer', () => {
  const named = new Set(LAYERS.flat());
  expect([...listFolders('runner'), ...listFolders('images')].filter((folder) => !named.has(folder))).toEqual([]);
});

test('the import lines were read', () => {
  expect(edges.length).toBeGreaterThan(100);
  for (const { from, to } of edges) expect([from, layerOf(from), to, layerOf(to)]).not.toContain(-1);
});

test('no module imports a later stage of the pipeline', () => {
  const backwards = edges
    .filter(({ from, to }) => layerOf(to) > layerOf(from))
    .map(({ from, to }) => `${from} → ${to}`);
  expect(backwards).toEqual([]);
});

test('the image never imports the runner', () => {
  expect(edges.filter(({ from }) => from.startsWith('images/')).length).toBeGreaterThan(50);
  expect(edges.filter(({ from, to }) => from.startsWith('images/') && to.startsWith('runner/'))).toEqual([]);
});
