// A second Docker engine on this machine, for the tests of a matrix over several engines: its own
// data-root, exec-root, pidfile, socket and bridge. Never `--bridge none`: a dockerd started that way
// deletes docker0, the first engine's network. It is stopped by its pid, never by name.
import { closeSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { execa } from 'execa';
import { createDockerClient } from '../../runner/docker/engines/client.js';
import { pingEngine } from '../../runner/docker/engines/client.js';

/** `ip -4 addr show docker0`, to show the first engine's network is what it was. */
export async function describeDocker0() {
  return (await execa('ip', ['-4', '-o', 'addr', 'show', 'docker0'], { reject: false })).stdout
    .replace(/\s+valid_lft.*$/gm, '')
    .trim();
}

export async function startSecondEngine() {
  const tag = Math.random().toString(16).slice(2, 6);
  const bridge = `ntlb${tag}`;
  // Short: a unix socket path is limited to 108 bytes.
  const execRoot = mkdtempSync('/tmp/ne');
  const dataRoot = mkdtempSync('/tmp/ntl-engine2-data-');
  const socket = join(execRoot, 'd.sock');
  const pidfile = join(execRoot, 'd.pid');
  const log = join(dataRoot, 'dockerd.log');
  const subnet = await chooseFreeSubnet();
  await execa('ip', ['link', 'add', bridge, 'type', 'bridge']);
  await execa('ip', ['addr', 'add', `${subnet}.1/24`, 'dev', bridge]);
  await execa('ip', ['link', 'set', bridge, 'up']);
  const engine = { bridge, execRoot, dataRoot, socket, host: `unix://${socket}`, pid: undefined, log };
  engine.docker = createDockerClient(engine.host);

  // A dockerd killed with SIGKILL can leave its containerd behind, still holding its state: a restart
  // that cannot get containerd up ends what is left of the old one (by pid, found by this exec-root) and
  // tries once more.
  engine.start = async () => {
    try {
      await startOnce();
    } catch (error) {
      await engine.stop();
      killProcessesMentioning(execRoot);
      await delay(1000);
      await startOnce().catch((again) => {
        throw new Error(`${error.message}\nand again: ${again.message}`);
      });
    }
  };
  const startOnce = async () => {
    const fd = openSync(log, 'a');
    const daemon = execa(
      'dockerd',
      [
        '--data-root',
        join(dataRoot, 'data'),
        '--exec-root',
        join(execRoot, 'x'),
        '--pidfile',
        pidfile,
        '-H',
        engine.host,
        '--bridge',
        bridge,
        '--iptables=false',
        '--ip-masq=false',
      ],
      { detached: true, cleanup: false, reject: false, stdio: ['ignore', fd, fd] },
    );
    closeSync(fd);
    daemon.unref();
    engine.pid = daemon.pid;
    const until = Date.now() + 60_000;
    while (await pingEngine(engine.docker, 2000)) {
      if (Date.now() > until || !isAlive(engine.pid))
        throw new Error(
          `the second dockerd did not answer within 60 s; see ${log}:\n${readFileSync(log, 'utf8').slice(-2000)}`,
        );
      await delay(300);
    }
  };
  engine.kill = () => process.kill(engine.pid, 'SIGKILL');
  engine.stop = async () => {
    if (engine.pid && isAlive(engine.pid)) {
      process.kill(engine.pid, 'SIGTERM');
      const until = Date.now() + 30_000;
      while (isAlive(engine.pid) && Date.now() < until) await delay(200);
      if (isAlive(engine.pid)) process.kill(engine.pid, 'SIGKILL');
    }
  };
  /**
   * Stop it, end what it started (its containerd and shims, found by its own exec-root), remove the bridge and
   * folders.
   */
  engine.remove = async () => {
    await engine.stop();
    killProcessesMentioning(execRoot);
    await delay(500);
    await execa('ip', ['link', 'del', bridge], { reject: false });
    for (const dir of [execRoot, dataRoot]) {
      // dockerd mounts its data-root (and network namespaces under its exec-root) onto themselves.
      for (const mount of listMountsUnder(dir)) await execa('umount', ['-l', mount], { reject: false });
      rmSync(dir, { recursive: true, force: true });
    }
  };
  await engine.start();
  return engine;
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    // A zombie (exited, not yet reaped by its detached parent) is not alive.
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

function listMountsUnder(dir) {
  return readFileSync('/proc/mounts', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[1])
    .filter((mount) => mount && (mount === dir || mount.startsWith(`${dir}/`)))
    .sort((a, b) => b.length - a.length);
}

function killProcessesMentioning(path) {
  for (const pid of findProcessesMentioning(path)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

function findProcessesMentioning(path) {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(path);
      } catch {
        return false;
      }
    });
}

async function chooseFreeSubnet() {
  const { stdout } = await execa('ip', ['-4', '-o', 'addr']);
  for (let attempt = 0; attempt < 50; attempt++) {
    const subnet = `10.${200 + Math.floor(Math.random() * 50)}.${Math.floor(Math.random() * 250)}`;
    if (!stdout.includes(` ${subnet}.`)) return subnet;
  }
  throw new Error('no free 10.x.y.0/24 subnet found for the second engine');
}
