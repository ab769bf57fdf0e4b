// `--engine NAME_OR_URL` → where the engine is and how to talk to it. A URL (unix://, tcp://,
// ssh://user@host) is used as is; a name is a Docker CLI context, read from the CLI's own store so that
// what `docker context ls` shows is what the runner reaches, TLS material included. The store's layout
// (docker/cli cli/context/store): $DOCKER_CONFIG (default ~/.docker)/contexts/meta/<sha256(name)>/meta.json
// holds Endpoints.docker.{Host, SkipTLSVerify}; contexts/tls/<sha256(name)>/docker/{ca,cert,key}.pem
// the TLS files, when the context was created with them.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { LabError } from '../../errors.js';

export const DEFAULT_ENGINE = 'default';
const URL_PATTERN = /^(unix|tcp|ssh|https?):\/\//;

/**
 * @typedef {object} EngineEndpoint
 * @property {string} name      as the person wrote it: a context name or the URL itself
 * @property {string} host      DOCKER_HOST-style address
 * @property {{ ca?: Buffer, cert?: Buffer, key?: Buffer }} [tls]
 * @property {boolean} [skipTLSVerify]
 * @property {string} source    'url' | 'context' | 'default'
 */

/** @returns {EngineEndpoint} */
export function resolveEngine(nameOrUrl, { env = process.env } = {}) {
  if (URL_PATTERN.test(nameOrUrl)) return { name: nameOrUrl, host: nameOrUrl, source: 'url' };
  // The CLI's `default` context is DOCKER_HOST or the local socket: today's behaviour, kept.
  if (nameOrUrl === DEFAULT_ENGINE)
    return { name: DEFAULT_ENGINE, host: env.DOCKER_HOST || 'unix:///var/run/docker.sock', source: 'default' };
  return readContext(nameOrUrl, { env });
}

export function contextStoreDir(env = process.env) {
  return join(env.DOCKER_CONFIG || join(homedir(), '.docker'), 'contexts');
}

export function contextDirName(name) {
  return createHash('sha256').update(name).digest('hex');
}

function readContext(name, { env }) {
  const store = contextStoreDir(env);
  const id = contextDirName(name);
  let meta;
  try {
    meta = JSON.parse(readFileSync(join(store, 'meta', id, 'meta.json'), 'utf8'));
  } catch (cause) {
    throw new LabError(
      'ERR_USAGE',
      `--engine ${name}: no Docker context of that name in ${store}, and it is not a URL`,
      {
        hint: `known contexts: ${listContextNames(store).join(', ') || '(none)'}; create one with \`docker context create ${name} --docker host=ssh://user@host\`, or pass a URL (unix:///path, tcp://host:2376, ssh://user@host)`,
        cause,
      },
    );
  }
  const endpoint = meta.Endpoints?.docker;
  if (!endpoint?.Host) {
    throw new LabError('ERR_USAGE', `--engine ${name}: the Docker context has no docker endpoint host`, {
      hint: `see \`docker context inspect ${name}\`; set one with \`docker context update ${name} --docker host=...\``,
    });
  }
  return {
    name,
    host: endpoint.Host,
    tls: readTls(join(store, 'tls', id, 'docker')),
    skipTLSVerify: Boolean(endpoint.SkipTLSVerify),
    source: 'context',
  };
}

function readTls(dir) {
  const read = (file) => {
    try {
      return readFileSync(join(dir, file));
    } catch {
      return undefined;
    }
  };
  const tls = { ca: read('ca.pem'), cert: read('cert.pem'), key: read('key.pem') };
  return Object.values(tls).some(Boolean) ? tls : undefined;
}

/** Names in the store, for the hint of a misspelt one. */
export function listContextNames(store = contextStoreDir()) {
  try {
    return readdirSync(join(store, 'meta'))
      .flatMap((id) => {
        try {
          return [JSON.parse(readFileSync(join(store, 'meta', id, 'meta.json'), 'utf8')).Name];
        } catch {
          return [];
        }
      })
      .sort();
  } catch {
    return [];
  }
}
