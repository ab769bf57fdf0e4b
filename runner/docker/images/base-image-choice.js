// Which image a Node major's workload is built on, from where the person is:
//   official  node:<major>-bookworm-slim, the image every Node.js developer already uses, when the
//             engine has it or can pull it (Docker Desktop, a docker-group user: no root needed);
//   a name    an image the person names (a registry mirror, their own base), checked for `node`;
//   local     the offline base built here from Debian packages (needs root; no registry at all);
//   auto      (default) official when the engine has it; else the offline base if it was built
//             before (no pull attempt on every start: on a machine without a registry that would
//             cost a DNS timeout each time); else official if it can be pulled; else build local.
import { LabError } from '../../errors.js';
// LAB_OFFICIAL_IMAGE points at a mirror (`registry.example/node:{major}-bookworm-slim`) or, in tests,
// at a test-only name, so tagging a stand-in never changes what other runs on the engine use.
export const OFFICIAL_IMAGE_TEMPLATE = 'node:{major}-bookworm-slim';

export function formatOfficialImage(major, template = process.env.LAB_OFFICIAL_IMAGE || OFFICIAL_IMAGE_TEMPLATE) {
  return template.replaceAll('{major}', String(major));
}

/**
 * @param {object} engine  { inspect(ref) → id|undefined, pull(ref) → void (throws why not),
 *   buildLocal() → {tag,id,nodeVersion}, hasLocal() → bool (the offline base exists), canBuildLocal() → bool (root),
 *   fixCommand(major) → string }
 * @param {{ major: number, choice: string, template?: string }} request
 * @returns {Promise<{ source: 'official'|'named'|'local', tag: string, id: string, nodeVersion?: string,
 *   note?: string }>}
 */
export async function resolveBaseImage(engine, { major, choice, template }) {
  if (choice === 'local') {
    if (!(await engine.hasLocal()) && !(await engine.canBuildLocal())) {
      throw new LabError(
        'ERR_IMAGE_UNAVAILABLE',
        `No offline base image with Node ${major} on the engine (\`image: local\`), and building it needs root`,
        {
          hint: `run once: ${engine.fixCommand(major)}`,
        },
      );
    }
    return { source: 'local', ...(await engine.buildLocal()) };
  }
  if (choice !== 'auto' && choice !== 'official') {
    const found = await findOrPull(engine, choice);
    if (found.id) return { source: 'named', tag: choice, id: found.id };
    throw new LabError(
      'ERR_IMAGE_UNAVAILABLE',
      `The image ${choice} named by \`image:\` is not on the engine and cannot be pulled: ${found.reason}`,
      {
        hint: `pull or build it on the engine first (\`docker pull ${choice}\`), or write \`image: auto\``,
      },
    );
  }
  const official = formatOfficialImage(major, template);
  if (choice === 'auto') {
    const id = await engine.inspect(official);
    if (id) return { source: 'official', tag: official, id };
    if (await engine.hasLocal())
      return {
        source: 'local',
        note: `${official} is not on the engine (\`docker pull ${official}\` to use it)`,
        ...(await engine.buildLocal()),
      };
  }
  const found = await findOrPull(engine, official);
  if (found.id) return { source: 'official', tag: official, id: found.id };
  if (choice === 'official') {
    throw new LabError('ERR_IMAGE_UNAVAILABLE', `The engine has no ${official} and cannot pull it: ${found.reason}`, {
      hint: `pull it where a registry is reachable (\`docker pull ${official}\`), or write \`image: auto\` to fall back to the offline base image`,
    });
  }
  if (await engine.canBuildLocal()) {
    return { source: 'local', note: `${official} unavailable (${found.reason})`, ...(await engine.buildLocal()) };
  }
  throw new LabError(
    'ERR_IMAGE_UNAVAILABLE',
    `No image with Node ${major}: the engine has no ${official} and cannot pull it (${found.reason}), and building the offline base image needs root`,
    {
      hint: `run once: ${engine.fixCommand(major)}`,
    },
  );
}

async function findOrPull(engine, reference) {
  const id = await engine.inspect(reference);
  if (id) return { id };
  try {
    await engine.pull(reference);
  } catch (error) {
    return { reason: firstLine(error.message) };
  }
  const pulled = await engine.inspect(reference);
  return pulled ? { id: pulled } : { reason: 'the pull reported success but the image is not there' };
}

function firstLine(text = '') {
  return text
    .replace(/^\(HTTP code \d+\) [^-]*- /, '')
    .split('\n')[0]
    .trim();
}
