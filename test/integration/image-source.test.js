// Where the Node of the containers comes from, on the real engine. No registry is reachable here, so
// a locally built image stands for the official one under a test-only name (LAB_OFFICIAL_IMAGE), and
// a name the engine does not have stands for an engine without it. Every tag made here is removed.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { formatBaseTag } from '../../runner/docker/images/base-image.js';
import { inspectImageId } from '../../runner/docker/images/image-store.js';
import { NODE_VERSIONS } from '../../runner/docker/images/rootfs/node-versions.js';
import { connectTestEngine } from '../support/docker-helpers.js';
import { runCli } from '../support/run-cli.js';

const PREFIX = `lab-test-users-${process.pid}`;
const STAND_IN = `${PREFIX}/node:24-bookworm-slim`;
const NO_NODE = `${PREFIX}/no-node:1`;
const TEMPLATE_PRESENT = `${PREFIX}/node:{major}-bookworm-slim`;
const TEMPLATE_ABSENT = `${PREFIX}-absent/node:{major}-bookworm-slim`;
const DOCKER_GROUP_ID = 105;

function writeConfig(dir, { image, node = 24 } = {}) {
  const file = join(dir, 'experiments.yml');
  writeFileSync(
    file,
    [
      'experiments:',
      '  images:',
      '    repetitions: 1',
      ...(image ? [`    image: ${image}`] : []),
      `    matrix: {workload: [pbkdf2], node: [${node}]}`,
      '    params: {pbkdf2: {tasks: 1, iterations: 1, keylen: 16, digest: sha256}}',
      '',
    ].join('\n'),
  );
  return file;
}

function freshDir() {
  const dir = mkdtempSync(join(tmpdir(), 'lab-image-'));
  chmodSync(dir, 0o777);
  return dir;
}

const readInfo = (dir) => JSON.parse(readFileSync(join(dir, 'out', 'run.json'), 'utf8'));

describe('image sources on the real engine', () => {
  let docker;
  const built = [];

  beforeAll(async () => {
    docker = await connectTestEngine();
    // A stand-in for node:24-bookworm-slim: an image with Node 24 and a different id than the offline base.
    await execa('docker', ['build', '-q', '-t', STAND_IN, '-'], {
      input: `FROM ${formatBaseTag(NODE_VERSIONS['24'])}\nLABEL node-threads-lab.test=${PREFIX}\n`,
    });
    // An image without node: one file, imported from a tar.
    const dir = freshDir();
    mkdirSync(join(dir, 'root'));
    writeFileSync(join(dir, 'root', 'hello.txt'), 'no node here\n');
    await execa('sh', ['-c', `tar -C ${join(dir, 'root')} -cf - . | docker import - ${NO_NODE}`]);
  });

  afterAll(async () => {
    for (const reference of [...built, STAND_IN, NO_NODE]) {
      await docker
        .getImage(reference)
        .remove({ noprune: false })
        .catch(() => {});
    }
  });

  test('auto with an official image on the engine: built on it, said at start, recorded in run.json', async () => {
    const dir = freshDir();
    const result = await runCli(['run', '--config', writeConfig(dir), '--out', join(dir, 'out')], {
      env: { LAB_OFFICIAL_IMAGE: TEMPLATE_PRESENT },
    });
    expect(result.all).toContain(`node24 base: ${STAND_IN} (official, Node ${NODE_VERSIONS['24']})`);
    expect(result.exitCode).toBe(0);
    const image = readInfo(dir).images['24'];
    built.push(image.tag);
    expect(image).toMatchObject({
      source: 'official',
      base: STAND_IN,
      nodeVersion: NODE_VERSIONS['24'],
      base_id: await inspectImageId(docker, STAND_IN),
    });
    expect(result.all).toMatch(/node24 build: Step \d+\/\d+ : RUN \["node", "\/app\/prepare-native\.js"\]/);
  });

  test('auto with no official image: the offline base, and how to use the official one', async () => {
    const dir = freshDir();
    const result = await runCli(['run', '--config', writeConfig(dir), '--out', join(dir, 'out')], {
      env: { LAB_OFFICIAL_IMAGE: TEMPLATE_ABSENT },
    });
    expect(result.exitCode).toBe(0);
    expect(result.all).toMatch(
      new RegExp(
        `node24 base: node-threads-lab/base:node${NODE_VERSIONS['24']}-\\S+ \\(local, Node ${NODE_VERSIONS['24']}\\): ${PREFIX}-absent/node:24-bookworm-slim is not on the engine \\(\`docker pull ${PREFIX}-absent/node:24-bookworm-slim\` to use it\\)`,
      ),
    );
    expect(readInfo(dir).images['24']).toMatchObject({ source: 'local', base: formatBaseTag(NODE_VERSIONS['24']) });
  });

  test('image: official where the engine cannot give it: exit 2 before any run', async () => {
    const dir = freshDir();
    const result = await runCli(
      ['run', '--config', writeConfig(dir, { image: 'official' }), '--out', join(dir, 'out')],
      {
        env: { LAB_OFFICIAL_IMAGE: TEMPLATE_ABSENT },
      },
    );
    expect(result.exitCode).toBe(2);
    expect(result.all).toContain(`The engine has no ${PREFIX}-absent/node:24-bookworm-slim and cannot pull it`);
    expect(existsSync(join(dir, 'out', 'runs.csv'))).toBe(false);
  });

  test('a named image is checked: one without node, or with another Node major, is refused', async () => {
    const noNode = freshDir();
    const missing = await runCli([
      'run',
      '--config',
      writeConfig(noNode, { image: NO_NODE }),
      '--out',
      join(noNode, 'out'),
    ]);
    expect(missing.exitCode).toBe(2);
    expect(missing.all).toContain(`The image ${NO_NODE} has no working \`node\``);

    const otherMajor = freshDir();
    const mismatch = await runCli([
      'run',
      '--config',
      writeConfig(otherMajor, { image: STAND_IN, node: 22 }),
      '--out',
      join(otherMajor, 'out'),
    ]);
    expect(mismatch.exitCode).toBe(2);
    expect(mismatch.all).toContain(
      `The image ${STAND_IN} has Node ${NODE_VERSIONS['24']}, but the cells ask for Node 22`,
    );
  });

  test('a named image with node: used, its version recorded', async () => {
    const dir = freshDir();
    const result = await runCli(['run', '--config', writeConfig(dir, { image: STAND_IN }), '--out', join(dir, 'out')]);
    expect(result.exitCode).toBe(0);
    expect(readInfo(dir).images['24:' + STAND_IN]).toMatchObject({
      source: 'named',
      base: STAND_IN,
      nodeVersion: NODE_VERSIONS['24'],
    });
  });

  describe('no root: a user in the docker group', () => {
    const asUser = (groups) => (args, dir) =>
      execa('setpriv', ['--reuid=65534', '--regid=65534', groups, process.execPath, ...args], {
        cwd: dir,
        reject: false,
        all: true,
        env: { HOME: dir, PATH: process.env.PATH, LAB_OFFICIAL_IMAGE: TEMPLATE_ABSENT },
      });
    const asDockerUser = asUser(`--groups=${DOCKER_GROUP_ID}`);
    const cli = new URL('../../runner/cli.js', import.meta.url).pathname;

    test('runs a matrix where the engine has an image', async () => {
      const dir = freshDir();
      const result = await asDockerUser([cli, 'run', '--config', writeConfig(dir)], dir);
      expect(result.all).toMatch(/images: 1 ok, 0 not ok, of 1/);
      expect(result.exitCode).toBe(0);
    });

    test('where no image can be had without root: one message with the one command that fixes it', async () => {
      const missingMajors = [];
      for (const each of Object.keys(NODE_VERSIONS))
        if (!(await inspectImageId(docker, formatBaseTag(NODE_VERSIONS[each])))) missingMajors.push(each);
      expect(missingMajors.length).toBeGreaterThan(0); // some pinned major has no offline base on this engine
      const dir = freshDir();
      const result = await asDockerUser([cli, 'run', '--config', writeConfig(dir, { node: missingMajors[0] })], dir);
      expect(result.exitCode).toBe(2);
      expect(result.all).toContain(
        `No image with Node ${missingMajors[0]}: the engine has no ${PREFIX}-absent/node:${missingMajors[0]}-bookworm-slim and cannot pull it`,
      );
      expect(result.all).toMatch(
        new RegExp(`run once: sudo npm --prefix \\S+ run images -- ${missingMajors[0]}$`, 'm'),
      );
    });

    test('a user the engine refuses: one message with the one command that fixes it', async () => {
      const dir = freshDir();
      const result = await asUser('--clear-groups')([cli, 'run', '--config', writeConfig(dir)], dir);
      expect(result.exitCode).toBe(2);
      expect(result.all).toContain('Fix: `sudo usermod -aG docker $USER`, then log in again.');
    });
  });
});
