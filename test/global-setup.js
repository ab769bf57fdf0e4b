// Jest globalSetup of the integration project only (package.json "jest.projects"): one engine check and
// one image build for the whole run, so integration tests only read LAB_TEST_IMAGE. `npm run test:unit`
// never runs it. It never throws: integration tests report LAB_TEST_IMAGE_ERROR instead.
import { connectEngine } from '../runner/docker/engines/connect.js';
import { DEFAULT_NODE_MAJOR } from '../runner/domain/axes.js';
import { ensureImages } from '../runner/docker/images/workload-image.js';

export default async function setUpTestImage() {
  delete process.env.LAB_TEST_IMAGE_ERROR;
  // Silent when everything is built; a first run (half a minute) shows what it is doing.
  let separator = '\n';
  const onProgress = (line) => {
    if (line.includes(' cached: ') || line.includes(' base: ')) return;
    process.stderr.write(`${separator}global-setup: ${line}\n`);
    separator = '';
  };
  try {
    const { docker } = await connectEngine({ setup: true, onProgress });
    const images = await ensureImages(docker, { nodeMajors: [DEFAULT_NODE_MAJOR], onProgress });
    process.env.LAB_TEST_IMAGE = images.get(DEFAULT_NODE_MAJOR).tag;
  } catch (error) {
    const text = typeof error.format === 'function' ? error.format() : String(error.stack ?? error);
    process.env.LAB_TEST_IMAGE_ERROR = text;
    process.stderr.write(`\nglobal-setup: no workload image, integration tests will fail:\n${text}\n`);
  }
}
