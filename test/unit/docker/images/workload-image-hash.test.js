import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  formatWorkloadTag,
  hashWorkloadContext,
  readContextFiles,
} from '../../../../runner/docker/images/workload-image.js';

const files = [
  { path: 'Dockerfile', content: 'FROM ${BASE}\n' },
  { path: 'images/workload/run.js', content: 'console.log(1)\n' },
  { path: 'images/workload/package-lock.json', content: '{}\n' },
];
const baseImageId = 'sha256:aaaa';

describe('hashWorkloadContext', () => {
  test('is stable and ignores the order files were listed in', () => {
    const hash = hashWorkloadContext({ files, baseImageId });
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashWorkloadContext({ files: [...files].reverse(), baseImageId })).toBe(hash);
  });

  test('changes when a file, a path or the base image changes', () => {
    const hash = hashWorkloadContext({ files, baseImageId });
    const edited = files.map((file) =>
      file.path.endsWith('run.js') ? { ...file, content: 'console.log(2)\n' } : file,
    );
    const moved = files.map((file) =>
      file.path.endsWith('run.js') ? { ...file, path: 'images/workload/main.js' } : file,
    );
    const variants = [
      hashWorkloadContext({ files: edited, baseImageId }),
      hashWorkloadContext({ files: moved, baseImageId }),
      hashWorkloadContext({ files: files.slice(0, 2), baseImageId }),
      hashWorkloadContext({ files, baseImageId: 'sha256:bbbb' }),
    ];
    expect(new Set([hash, ...variants]).size).toBe(5);
  });

  test('does not confuse content moved across a file boundary', () => {
    const a = [
      { path: 'x', content: 'ab' },
      { path: 'y', content: 'c' },
    ];
    const b = [
      { path: 'x', content: 'a' },
      { path: 'y', content: 'bc' },
    ];
    expect(hashWorkloadContext({ files: a, baseImageId })).not.toBe(hashWorkloadContext({ files: b, baseImageId }));
  });
});

describe('readContextFiles', () => {
  let root;

  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'images-hash-'));
    await mkdir(path.join(root, 'images/workload/workloads'), { recursive: true });
    await mkdir(path.join(root, 'images/workload/node_modules/dep'), { recursive: true });
    await writeFile(path.join(root, 'Dockerfile'), 'FROM ${BASE}\n');
    await writeFile(path.join(root, 'images/workload/run.js'), 'run\n');
    await writeFile(path.join(root, 'images/workload/package-lock.json'), '{}\n');
    await writeFile(path.join(root, 'images/workload/workloads/cpu.js'), 'cpu\n');
    await writeFile(path.join(root, 'images/workload/node_modules/dep/index.js'), 'dep\n');
  });

  afterEach(() => rm(root, { recursive: true, force: true }));

  test('reads the Dockerfile and the workload tree, without node_modules', async () => {
    const paths = (await readContextFiles(root)).map((file) => file.path).sort();
    expect(paths).toEqual([
      'Dockerfile',
      'images/workload/package-lock.json',
      'images/workload/run.js',
      'images/workload/workloads/cpu.js',
    ]);
  });

  test('gives a new hash after a workload file changes, and the same one otherwise', async () => {
    const before = hashWorkloadContext({ files: await readContextFiles(root), baseImageId });
    expect(hashWorkloadContext({ files: await readContextFiles(root), baseImageId })).toBe(before);
    await writeFile(path.join(root, 'images/workload/node_modules/dep/index.js'), 'changed\n');
    expect(hashWorkloadContext({ files: await readContextFiles(root), baseImageId })).toBe(before);
    await writeFile(path.join(root, 'images/workload/workloads/cpu.js'), 'changed\n');
    expect(hashWorkloadContext({ files: await readContextFiles(root), baseImageId })).not.toBe(before);
  });
});

test('formatWorkloadTag names the major and 12 hash characters', () => {
  expect(formatWorkloadTag(24, 'abcdef0123456789')).toBe('node-threads-lab/workload:node24-abcdef012345');
});
