// `npm run images [-- --image CHOICE] [major...]`: build, or confirm up to date, the workload image for
// each Node major, on the base image CHOICE gives (auto, official, local or an image name; see
// runner/docker/images/base-image-choice.js). Run as root where the offline base must be built.
import { parseArgs } from 'node:util';
import { connectEngine } from '../runner/docker/engines/connect.js';
import { DEFAULT_NODE_MAJOR } from '../runner/domain/axes.js';
import { ensureImages } from '../runner/docker/images/workload-image.js';
import { LabError } from '../runner/errors.js';

const USAGE = 'Usage: npm run images -- [--image auto|official|local|NAME] [major...]   (default: auto, the current LTS major)';

function parseCommand(argv) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { image: { type: 'string', default: 'auto' } } });
  } catch (cause) {
    throw new LabError('ERR_USAGE', cause.message, { hint: USAGE, cause });
  }
  const invalid = parsed.positionals.find((arg) => !/^[1-9]\d*$/.test(arg));
  if (invalid !== undefined) {
    throw new LabError('ERR_USAGE', `Expected Node major versions such as 22 or 24, got ${JSON.stringify(invalid)}`, { hint: USAGE });
  }
  const majors = parsed.positionals.length > 0 ? parsed.positionals.map(Number) : [DEFAULT_NODE_MAJOR];
  return majors.map((major) => ({ major, choice: parsed.values.image }));
}

try {
  const requests = parseCommand(process.argv.slice(2));
  const { docker } = await connectEngine();
  const started = Date.now();
  const images = await ensureImages(docker, { requests, onProgress: (line) => console.error(line) });
  for (const [key, { tag, id, nodeVersion, source, base }] of images) {
    console.log(`node${String(key).split(':')[0]}\t${nodeVersion}\t${tag}\t${id.slice(7, 19)}\t${source}: ${base}`);
  }
  console.error(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} catch (error) {
  if (!(error instanceof LabError)) throw error;
  console.error(error.format());
  process.exitCode = error.exitCode;
}
