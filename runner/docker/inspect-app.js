// What `init` asks an engine about a service: its CPU count, and, in the preflight's locked-down container (the
// workload image, the service's folder mounted read-only, no network), the built app's route table and its answer
// to the request init would write. Building an app runs the person's code: it runs there, never on this machine.
import { DEFAULT_NODE_MAJOR } from '../domain/axes.js';
import { LabError } from '../errors.js';
import { connectEngine } from './engines/connect.js';
import { ensureImages } from './images/workload-image.js';
import { describePreflightFailure, readPreflightReport } from './runs/preflight-reason.js';
import { LABELS, runContainer } from './runs/run-container.js';

const PREFLIGHT_ENTRYPOINT = ['node', '/app/preflight.js'];
const TIMEOUT_MS = 120_000;
// As a run's server: enough for an app and its packages, not the host's.
const LIMITS = { memoryBytes: 1024 * 2 ** 20 };

/**
 * @param {{ onProgress?: (line: string) => void }} [options]
 * @returns {Promise<{ cpus: number, host: string, inspect(spec: object): Promise<object> }>}  inspect: one preflight
 *   container ({ kind: 'app'|'start', mount, file?, export?, start?, port?, env?, routes?, request? }) → its report
 */
export async function openAppInspector({ onProgress = () => {} } = {}) {
  const { docker, host } = await connectEngine();
  const { NCPU } = await docker.info();
  let image;
  return {
    cpus: NCPU,
    host,
    async inspect({ mount, env = {}, ...spec }) {
      image ??= (await ensureImages(docker, { nodeMajors: [DEFAULT_NODE_MAJOR], onProgress })).get(
        DEFAULT_NODE_MAJOR,
      ).tag;
      const raw = await runContainer(docker, {
        image,
        env: { ...env, LAB_PREFLIGHT: JSON.stringify(spec) },
        limits: { ...LIMITS, nanoCpus: Math.min(NCPU, 2) * 1e9 },
        mounts: [{ source: mount, target: '/lab/user' }],
        timeoutMs: TIMEOUT_MS,
        entrypoint: PREFLIGHT_ENTRYPOINT,
        labels: { [LABELS.experiment]: 'init', [LABELS.run]: 'preflight' },
      });
      const report = raw.exitCode === 0 && !raw.timedOut ? readPreflightReport(raw.stdout) : null;
      if (report) return report;
      throw new LabError('ERR_PREFLIGHT', describePreflightFailure(raw, { timeoutS: TIMEOUT_MS / 1000 }), {
        hint: 'fix what stops your app from being built, or name another export with --export NAME',
      });
    },
  };
}
