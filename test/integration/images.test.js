// Against the real engine: images are built once and then reused, and the workload image runs Node
// as the unprivileged lab user with no network at all (containers can never reach a registry).
import { readFile } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import { finished } from 'node:stream/promises';
import { PROJECT, PROJECT_LABEL } from '../../runner/docker/runs/labels.js';
import { connectEngine } from '../../runner/docker/engines/connect.js';
import { DEFAULT_NODE_MAJOR } from '../../runner/domain/axes.js';
import { ensureImages } from '../../runner/docker/images/workload-image.js';
import { formatBaseTag } from '../../runner/docker/images/base-image.js';
import { LABELS } from '../../runner/docker/runs/labels.js';
import { OWNER } from '../../runner/docker/runs/owner.js';

let docker;

beforeAll(async () => {
  if (process.env.LAB_TEST_IMAGE_ERROR)
    throw new Error(`global-setup could not build the test image:\n${process.env.LAB_TEST_IMAGE_ERROR}`);
  ({ docker } = await connectEngine());
});

/** Run `node ...args` in the image as 1000:1000 without a network; the container is always removed. */
async function runNode(image, args) {
  const container = await docker.createContainer({
    Image: image,
    Entrypoint: ['node'],
    Cmd: args,
    User: '1000:1000',
    Tty: false,
    // The owner label keeps a runner started meanwhile from taking this container for an orphan.
    Labels: { [PROJECT_LABEL]: PROJECT, [LABELS.owner]: OWNER, 'node-threads-lab.test': 'images' },
    HostConfig: { NetworkMode: 'none' },
  });
  try {
    await container.start();
    const { StatusCode } = await container.wait();
    const logs = await container.logs({ follow: true, stdout: true, stderr: true });
    const stdout = collect(new PassThrough());
    const stderr = collect(new PassThrough());
    docker.modem.demuxStream(logs, stdout.stream, stderr.stream);
    await finished(logs);
    return { exitCode: StatusCode, stdout: stdout.text(), stderr: stderr.text() };
  } finally {
    await container.remove({ force: true });
  }
}

function collect(stream) {
  const chunks = [];
  stream.on('data', (chunk) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

test('a second ensureImages builds nothing and returns the same image', async () => {
  const first = await ensureImages(docker, { nodeMajors: [DEFAULT_NODE_MAJOR] });
  const lines = [];
  const second = await ensureImages(docker, {
    nodeMajors: [DEFAULT_NODE_MAJOR],
    onProgress: (line) => lines.push(line),
  });

  expect(second.get(DEFAULT_NODE_MAJOR)).toEqual(first.get(DEFAULT_NODE_MAJOR));
  const { base, source, nodeVersion, tag } = first.get(DEFAULT_NODE_MAJOR);
  expect(lines).toEqual([
    expect.stringMatching(
      new RegExp(
        `^node${DEFAULT_NODE_MAJOR} base: ${base.replace(/[.]/g, '\\.')} \\(${source}, Node ${nodeVersion.replace(/[.]/g, '\\.')}\\)`,
      ),
    ),
    `node${DEFAULT_NODE_MAJOR} cached: ${tag} is up to date`,
  ]);
  expect(first.get(DEFAULT_NODE_MAJOR).tag).toBe(process.env.LAB_TEST_IMAGE);
});

test('both images carry the project label', async () => {
  const { tag, nodeVersion } = (await ensureImages(docker, { nodeMajors: [DEFAULT_NODE_MAJOR] })).get(
    DEFAULT_NODE_MAJOR,
  );
  for (const reference of [tag, formatBaseTag(nodeVersion)]) {
    const { Config } = await docker.getImage(reference).inspect();
    expect(Config.Labels).toMatchObject({ [PROJECT_LABEL]: PROJECT, 'node-threads-lab.node-version': nodeVersion });
  }
});

test('the workload image runs Node as 1000:1000 without a network', async () => {
  const { tag, nodeVersion } = (await ensureImages(docker, { nodeMajors: [DEFAULT_NODE_MAJOR] })).get(
    DEFAULT_NODE_MAJOR,
  );
  const script =
    'console.log(JSON.stringify({ version: process.version, uid: process.getuid(), gid: process.getgid(), user: require("os").userInfo().username }))';

  const result = await runNode(tag, ['-e', script]);

  expect(result).toMatchObject({ exitCode: 0, stderr: '' });
  expect(JSON.parse(result.stdout)).toEqual({ version: `v${nodeVersion}`, uid: 1000, gid: 1000, user: 'lab' });
});

test('the workload dependencies installed on the host load inside the container', async () => {
  const manifest = JSON.parse(await readFile(new URL('../../images/workload/package.json', import.meta.url), 'utf8'));
  const dependencies = Object.keys(manifest.dependencies ?? {});
  const script = `Promise.all(${JSON.stringify(dependencies)}.map((name) => import(name))).then(() => console.log('ok'))`;

  const result = await runNode(process.env.LAB_TEST_IMAGE, ['--input-type=module', '-e', script]);

  expect(result).toMatchObject({ exitCode: 0, stdout: 'ok\n' });
});

test('no container is left behind', async () => {
  const containers = await docker.listContainers({ all: true, filters: { label: ['node-threads-lab.test=images'] } });
  expect(containers).toEqual([]);
});
