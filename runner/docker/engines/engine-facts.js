// What each engine's machine is, read from the engine and never from the machine the runner is on:
// a laptop driving a 64-core server must check `cpus: 32` against the server. `docker info` gives
// the CPU count, memory, kernel, cgroup version and driver, Docker version; it has neither the CPU
// model nor the CPU ids, so a tiny container on the engine reads them (the cpuset a container may
// use, which is what `--cpuset-cpus` is checked against).
import { LabError } from '../../errors.js';
import { parseCpuList } from '../../../images/workload/lib/cpuset.js';
import { LABELS, runContainer } from '../runs/run-container.js';

/** The role label of the CPU probe container: one per engine per start, not a run. */
export const PROBE_ROLE = 'probe';

// NanoCpus (`docker run --cpus`) arrived with API 1.25 (Docker 1.13); everything else used is older.
export const MIN_API_VERSION = '1.25';

export const PROBE_SCRIPT = [
  "const fs = require('fs'); const os = require('os');",
  'const read = (p) => { try { return fs.readFileSync(p, "utf8").trim(); } catch { return null; } };',
  "const cpuset = read('/sys/fs/cgroup/cpuset.cpus.effective') ?? read('/sys/fs/cgroup/cpuset/cpuset.effective_cpus') ?? read('/sys/devices/system/cpu/online');",
  'console.log(JSON.stringify({ cpuset, model: os.cpus()[0]?.model ?? null }));',
].join('\n');

/**
 * @returns {Promise<EngineFacts>}
 * @typedef {object} EngineFacts
 * @property {number} cpus         NCPU
 * @property {number[]} cpu_ids    filled by probeEngineCpus; until then 0..cpus-1
 * @property {string|null} cpu_model
 * @property {number} memory_bytes
 * @property {string} kernel
 * @property {string} os
 * @property {string} architecture
 * @property {string} cgroup_version  "1" | "2"
 * @property {string} cgroup_driver
 * @property {string} docker_version
 * @property {string} api_version
 * @property {string} hostname
 */
export async function readEngineFacts(docker) {
  const [info, version] = await Promise.all([docker.info(), docker.version()]);
  return {
    cpus: info.NCPU,
    cpu_ids: Array.from({ length: info.NCPU }, (_, id) => id),
    cpu_model: null,
    memory_bytes: info.MemTotal,
    kernel: info.KernelVersion,
    os: info.OperatingSystem,
    architecture: info.Architecture,
    cgroup_version: String(info.CgroupVersion ?? '1'),
    cgroup_driver: info.CgroupDriver,
    cpu_cfs_quota: info.CpuCfsQuota !== false,
    cpuset_supported: info.CPUSet !== false,
    docker_version: info.ServerVersion ?? version.Version,
    api_version: version.ApiVersion,
    hostname: info.Name,
  };
}

/** The problems that make an engine unfit for this runner, as sentences; [] when fit. */
export function checkEngineFacts(facts) {
  const problems = [];
  if (compareVersions(facts.api_version, MIN_API_VERSION) < 0)
    problems.push(`its API version ${facts.api_version} is older than ${MIN_API_VERSION}`);
  // Rootless Docker on cgroup v1 runs without a cgroup driver: every limit would be silently ignored.
  if (facts.cgroup_driver === 'none')
    problems.push('it has no cgroup driver (rootless on cgroup v1?), so CPU and memory limits would be ignored');
  if (!facts.cpu_cfs_quota) problems.push('it has no CFS quota support, so `cpus` cannot be applied');
  if (!facts.cpuset_supported) problems.push('it has no cpuset support, so `cpuset` cannot be applied');
  return problems;
}

/** CPU ids and model as a container on the engine sees them; needs any image with node in it. */
export async function probeEngineCpus(docker, image) {
  const raw = await runContainer(docker, {
    image,
    entrypoint: ['node', '-e', PROBE_SCRIPT],
    env: {},
    limits: { memoryBytes: 128 * 2 ** 20 },
    timeoutMs: 30_000,
    labels: { [LABELS.role]: PROBE_ROLE },
  });
  let seen;
  try {
    seen = JSON.parse(raw.stdout);
  } catch (cause) {
    throw new LabError(
      'ERR_PREFLIGHT',
      `the CPU probe container on the engine failed (exit ${raw.exitCode}): ${raw.stderr.trim().split('\n').at(-1) ?? ''}`,
      {
        hint: 'check that the engine can start containers (`docker run --rm IMAGE node -e 0`)',
        cause,
      },
    );
  }
  return { cpu_ids: parseCpuList(seen.cpuset), cpu_model: seen.model };
}

export function compareVersions(a = '0', b = '0') {
  const left = String(a).split('.').map(Number);
  const right = String(b).split('.').map(Number);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const diff = (left[i] ?? 0) - (right[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  return 0;
}
