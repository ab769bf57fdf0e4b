// `npm run images [major...]`: build, or confirm up to date, the workload image for each Node major.
import { connectEngine } from '../runner/docker/engine.js';
import { DEFAULT_NODE_MAJOR, ensureImages } from '../runner/docker/images.js';
import { LabError } from '../runner/errors.js';

function parseMajors(args) {
  const invalid = args.find((arg) => !/^[1-9]\d*$/.test(arg));
  if (invalid !== undefined) {
    throw new LabError('ERR_USAGE', `Expected Node major versions such as 22 or 24, got ${JSON.stringify(invalid)}`, {
      hint: 'Usage: npm run images -- [major...]   (default: the current LTS major)',
    });
  }
  return args.length > 0 ? args.map(Number) : [DEFAULT_NODE_MAJOR];
}

try {
  const nodeMajors = parseMajors(process.argv.slice(2));
  const { docker } = await connectEngine();
  const started = Date.now();
  const images = await ensureImages(docker, { nodeMajors, onProgress: (line) => console.error(line) });
  for (const [major, { tag, id, nodeVersion }] of images) {
    console.log(`node${major}\t${nodeVersion}\t${tag}\t${id.slice(7, 19)}`);
  }
  console.error(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} catch (error) {
  if (!(error instanceof LabError)) throw error;
  console.error(error.format());
  process.exitCode = error.exitCode;
}
