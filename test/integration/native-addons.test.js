// The workload's native addons are the container's, not the host's: a host whose argon2 was compiled
// for another platform (a macOS or arm64 laptop) still gets a workload image whose argon2 loads.
// Stood for here by a copy of the build context whose host-built argon2.node is not a Linux addon.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectEngine } from '../../runner/docker/engines/connect.js';
import { DEFAULT_NODE_MAJOR } from '../../runner/domain/axes.js';
import { ensureImages } from '../../runner/docker/images/workload-image.js';
import { runContainer } from '../../runner/docker/runs/run-container.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ADDON = 'images/workload/node_modules/argon2/build/Release/argon2.node';

let docker;
let context;
let built;

beforeAll(async () => {
  ({ docker } = await connectEngine());
  context = mkdtempSync(join(tmpdir(), 'lab-native-'));
  cpSync(join(ROOT, 'Dockerfile'), join(context, 'Dockerfile'));
  cpSync(join(ROOT, 'images/workload'), join(context, 'images/workload'), { recursive: true });
  writeFileSync(join(context, ADDON), 'a Mach-O file from a laptop, not a Linux shared object\n');
  // A file of its own gives this context its own content hash, so its image is built, not found.
  writeFileSync(join(context, 'images/workload/native-addons-test.txt'), `${process.pid}\n`);
});

afterAll(async () => {
  if (built)
    await docker
      .getImage(built)
      .remove()
      .catch(() => {});
  rmSync(context, { recursive: true, force: true });
});

test("a host-built addon that does not load in the container is replaced by the package's Linux prebuild", async () => {
  const lines = [];
  const images = await ensureImages(docker, {
    root: context,
    nodeMajors: [DEFAULT_NODE_MAJOR],
    onProgress: (line) => lines.push(line),
  });
  built = images.get(DEFAULT_NODE_MAJOR).tag;
  expect(lines).toContainEqual(
    expect.stringMatching(/ build: Step \d+\/\d+ : RUN \["node", "\/app\/prepare-native\.js"\]/),
  );

  const result = await runContainer(docker, {
    image: built,
    env: {},
    limits: {},
    timeoutMs: 60_000,
    labels: { 'node-threads-lab.experiment': 'native-addons-test' },
    entrypoint: ['node', '--input-type=module', '-e'],
    cmd: [
      "import argon2 from 'argon2'; const hash = await argon2.hash('x', { memoryCost: 1024, timeCost: 1 }); console.log(hash.split('$')[1], await argon2.verify(hash, 'x'));",
    ],
  });
  expect(result.stderr).toBe('');
  expect(result.stdout.trim()).toBe('argon2id true');
});
