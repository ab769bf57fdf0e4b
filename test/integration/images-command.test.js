// `node-threads-lab images` on the real engine: the default major's workload image (built by the global set-up) is
// confirmed up to date, as one line of text or, with --json, one document (docs/cli.md, JSON output).
import { DEFAULT_NODE_MAJOR } from '../../runner/domain/axes.js';
import { runCli } from '../support/run-cli.js';

test('images --json: one entry per major, the tag the matrix uses, the id and where the base came from', async () => {
  if (process.env.LAB_TEST_IMAGE_ERROR)
    throw new Error(`global-setup could not build the test image:\n${process.env.LAB_TEST_IMAGE_ERROR}`);
  const json = await runCli(['images', '--json', String(DEFAULT_NODE_MAJOR)]);
  expect([json.exitCode, json.exitCode === 0 ? '' : json.all]).toEqual([0, '']);
  expect(JSON.parse(json.stdout)).toEqual({
    images: [
      {
        major: DEFAULT_NODE_MAJOR,
        node_version: expect.stringMatching(new RegExp(`^${DEFAULT_NODE_MAJOR}\\.`)),
        tag: process.env.LAB_TEST_IMAGE,
        id: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
        source: expect.stringMatching(/^(official|local|named)$/),
        base: expect.any(String),
      },
    ],
  });
  const [image] = JSON.parse(json.stdout).images;
  const text = await runCli(['images', String(DEFAULT_NODE_MAJOR)]);
  expect(text.stdout).toBe(
    [`node${image.major}`, image.node_version, image.tag, image.id.slice(7, 19), `${image.source}: ${image.base}`].join(
      '\t',
    ),
  );
});
