// The folders are the pipeline (docs/architecture.md): config → plan → docker (run) → collect → results →
// report, over shared tables. A module imports its own stage, earlier stages and the shared layer, never a
// later stage; the image's code never imports the runner. Read from the import lines, so a change that
// breaks the direction fails here rather than in a review.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// Every folder of runner/ and images/ is named here, itself (a folder's modules belong to the layer that names the
// folder, not to its parent's): a new folder fails 'every folder has a layer' until it is placed.
const LAYERS = [
  ['runner/errors.js'],
  [
    'runner/domain/',
    'runner/stats/',
    'runner/verdicts/',
    'runner/model/',
    'images/',
    'images/workload/',
    'images/workload/http/',
    'images/workload/lib/',
    'images/workload/probe/',
    'images/workload/spread/',
    'images/workload/user/',
    'images/workload/workloads/',
  ],
  ['runner/config/', 'runner/config/diagnostics/'],
  // plan/ turns a config into runs; user-code/ reads the user's own modules before any run (the preflight's static
  // half, and what in them runs on the libuv pool); manifests/ reads the service's deployment files (Kubernetes,
  // Compose) for init's CPU budgets and memory limit; rounds/ decides what runs next from the rows so far (re-runs,
  // adaptive rounds, the race).
  // estimate/: how long a plan will take (earlier folders' run times, the shipped figures, the model).
  ['runner/estimate/'],
  ['runner/plan/', 'runner/user-code/', 'runner/manifests/'],
  ['runner/rounds/'],
  // The backend contract (what the run loop asks of whatever runs a container); docker/ implements it.
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
  return LAYERS.findIndex((entries) =>
    entries.some((entry) => path === entry || (entry.endsWith('/') && folderOf(path) === entry)),
  );
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

function importsOf(path) {
  const text = readFileSync(join(ROOT, path), 'utf8');
  return [...text.matchAll(/(?:from\s*|import\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)].map(([, spec]) =>
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
