// Engine names → endpoints: Docker CLI contexts read from the CLI's own store layout, URLs as they are.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDockerClient } from '../../../../runner/docker/engines/client.js';
import { contextDirName, listContextNames, resolveEngine } from '../../../../runner/docker/engines/contexts.js';
import { compareVersions, checkEngineFacts } from '../../../../runner/docker/engines/engine-facts.js';

// What `docker context create NAME --docker host=...,ca=...,cert=...,key=...` writes (docker/cli cli/context/store).
function writeContext(config, name, endpoint, tls) {
  const id = contextDirName(name);
  mkdirSync(join(config, 'contexts', 'meta', id), { recursive: true });
  writeFileSync(
    join(config, 'contexts', 'meta', id, 'meta.json'),
    JSON.stringify({ Name: name, Metadata: {}, Endpoints: { docker: endpoint } }),
  );
  if (tls) {
    mkdirSync(join(config, 'contexts', 'tls', id, 'docker'), { recursive: true });
    for (const [file, text] of Object.entries(tls))
      writeFileSync(join(config, 'contexts', 'tls', id, 'docker', file), text);
  }
}

describe('resolveEngine', () => {
  const config = mkdtempSync(join(tmpdir(), 'docker-config-'));
  const env = { DOCKER_CONFIG: config };
  writeContext(
    config,
    'server',
    { Host: 'tcp://server.lab:2376', SkipTLSVerify: false },
    { 'ca.pem': 'CA', 'cert.pem': 'CERT', 'key.pem': 'KEY' },
  );
  writeContext(config, 'laptop', { Host: 'unix:///run/user/1000/docker.sock', SkipTLSVerify: false });

  test('the context directory is the sha256 of the name, as the CLI names it', () => {
    expect(contextDirName('default')).toBe('37a8eec1ce19687d132fe29051dca629d164e2c4958ba141d5f4133a33f0688f');
  });

  test('a context name gives its host and TLS material', () => {
    const server = resolveEngine('server', { env });
    expect(server).toMatchObject({
      name: 'server',
      host: 'tcp://server.lab:2376',
      source: 'context',
      skipTLSVerify: false,
    });
    expect(Object.fromEntries(Object.entries(server.tls).map(([key, value]) => [key, value.toString()]))).toEqual({
      ca: 'CA',
      cert: 'CERT',
      key: 'KEY',
    });
    expect(resolveEngine('laptop', { env })).toMatchObject({
      host: 'unix:///run/user/1000/docker.sock',
      tls: undefined,
    });
  });

  test('a URL is used as is; `default` is DOCKER_HOST or the local socket', () => {
    expect(resolveEngine('ssh://lab@server', { env })).toEqual({
      name: 'ssh://lab@server',
      host: 'ssh://lab@server',
      source: 'url',
    });
    expect(resolveEngine('default', { env }).host).toBe('unix:///var/run/docker.sock');
    expect(resolveEngine('default', { env: { ...env, DOCKER_HOST: 'tcp://x:2375' } }).host).toBe('tcp://x:2375');
  });

  test('an unknown name is a usage error listing the contexts there are', () => {
    expect(() => resolveEngine('sever', { env })).toThrow(
      expect.objectContaining({
        code: 'ERR_USAGE',
        exitCode: 2,
        hint: expect.stringContaining('known contexts: laptop, server'),
      }),
    );
    expect(listContextNames(join(config, 'contexts'))).toEqual(['laptop', 'server']);
  });
});

describe('createDockerClient', () => {
  test('TLS from a context makes an https client carrying the certificates', () => {
    const modem = createDockerClient({
      host: 'tcp://server.lab:2376',
      tls: { ca: Buffer.from('CA'), cert: Buffer.from('C'), key: Buffer.from('K') },
    }).modem;
    expect(modem).toMatchObject({ host: 'server.lab', port: 2376, protocol: 'https' });
    expect(modem.ca.toString()).toBe('CA');
  });

  test('ssh://user@host goes through ssh, tcp:// without TLS is plain http, unix:// a socket', () => {
    expect(createDockerClient('ssh://lab@server:2222').modem).toMatchObject({
      protocol: 'ssh',
      host: 'server',
      port: 2222,
      username: 'lab',
    });
    expect(createDockerClient('tcp://10.0.0.2:2375').modem).toMatchObject({
      protocol: 'http',
      host: '10.0.0.2',
      port: 2375,
    });
    expect(createDockerClient('unix:///tmp/d.sock').modem.socketPath).toBe('/tmp/d.sock');
  });
});

describe('engine facts', () => {
  const fit = { api_version: '1.41', cgroup_driver: 'cgroupfs', cpu_cfs_quota: true, cpuset_supported: true };
  test('an engine whose limits would be ignored is refused, with the reason', () => {
    expect(checkEngineFacts(fit)).toEqual([]);
    expect(checkEngineFacts({ ...fit, cgroup_driver: 'none' })).toEqual([expect.stringMatching(/no cgroup driver/)]);
    expect(checkEngineFacts({ ...fit, api_version: '1.24', cpu_cfs_quota: false })).toHaveLength(2);
  });

  test('API versions compare as numbers', () => {
    expect(compareVersions('1.41', '1.25')).toBe(1);
    expect(compareVersions('1.9', '1.25')).toBe(-1);
    expect(compareVersions('1.25', '1.25')).toBe(0);
  });
});
