// `node-threads-lab images [MAJOR...]`: build, or confirm up to date, the workload image of each Node major, on
// the base image --image chooses (auto, official, local or an image name; docker/images/base-image-choice.js).
// Run as root where the offline base must be built.
import { LabError } from '../errors.js';
import { parseCommandLine } from './command-line.js';
import { buildImages } from '../index.js';

export const USAGE = `Usage: node-threads-lab images [--image auto|official|local|NAME] [--json] [MAJOR...]
       npm run images -- [--image ...] [MAJOR...]   (in a checkout of node-threads-lab)

  MAJOR        Node.js majors such as 22 or 24 (default: the current LTS)
  --image      the base image: auto (default: node:<major>-bookworm-slim when the engine has or can pull it,
               else the offline base built here, which needs root), official, local, or an image name
  --json       one JSON document on stdout instead of the lines: { images: [{ major, node_version, tag, id,
               source, base }] }
  -h, --help   this text

Prints one line per image: node<major>, the Node.js version, the tag, the id and where its base came from.

Exit status: the table in \`node-threads-lab --help\` (and docs/cli.md), one for every command.`;

export async function main(argv, { stdout, stderr }) {
  const { values, positionals } = parseCommandLine(argv, {
    allowPositionals: true,
    usage: USAGE,
    options: {
      image: { type: 'string', default: 'auto' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    stdout.write(`${USAGE}\n`);
    return 0;
  }
  const invalid = positionals.find((arg) => !/^[1-9]\d*$/.test(arg));
  if (invalid !== undefined)
    throw new LabError('ERR_USAGE', `Expected Node major versions such as 22 or 24, got ${JSON.stringify(invalid)}`, {
      hint: USAGE,
    });
  const started = Date.now();
  const built = await buildImages({
    majors: positionals.length > 0 ? positionals.map(Number) : undefined,
    image: values.image,
    onProgress: (line) => stderr.write(`${line}\n`),
  });
  if (values.json) {
    const images = built.map(({ major, node_version, tag, id, source, base }) => ({
      major,
      node_version,
      tag,
      id,
      source,
      base,
    }));
    stdout.write(`${JSON.stringify({ images }, null, 2)}\n`);
  }
  for (const { major, node_version: nodeVersion, tag, id, source, base } of values.json ? [] : built)
    stdout.write(`node${major}\t${nodeVersion}\t${tag}\t${id.slice(7, 19)}\t${source}: ${base}\n`);
  stderr.write(`done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return 0;
}
