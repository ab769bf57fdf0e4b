// The one-node Kubernetes lab (scripts/kube-lab.sh) for the kubernetes integration tests: brought up by the test
// file that needs it and down after it, and read with the lab's admin user, so a test sees every Job and pod of the
// project in the namespace whoever made them.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { BatchV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { LABELS, PROJECT, PROJECT_LABEL } from '../../runner/docker/runs/labels.js';
import { waitFor } from './docker-helpers.js';

export const LAB_SCRIPT = fileURLToPath(new URL('../../scripts/kube-lab.sh', import.meta.url));
export const NAMESPACE = 'node-threads-lab';
export const CONTEXT = 'kube-lab';
// The first `up` on a machine builds Kubernetes (about 12 minutes of one core); later ones take seconds.
export const LAB_UP_TIMEOUT_MS = 40 * 60_000;

/** `kube-lab.sh COMMAND`, its output kept; throws when it fails, with what it printed. */
export async function runLab(command, args = []) {
  const result = await execa('bash', [LAB_SCRIPT, command, ...args], { reject: false, all: true });
  if (result.exitCode !== 0) throw new Error(`kube-lab.sh ${command} exited ${result.exitCode}:\n${result.all}`);
  return result.stdout.trim();
}

/** Up with the tests' workload image; returns the kubeconfig's path and an admin view of the namespace. */
export async function startLab() {
  const image = process.env.LAB_TEST_IMAGE;
  if (!image) throw new Error(`no workload image: ${process.env.LAB_TEST_IMAGE_ERROR ?? 'global-setup did not run'}`);
  const kubeconfig = (await runLab('up', ['--image', image])).split('\n').at(-1);
  return { kubeconfig, admin: openAdmin(kubeconfig) };
}

export function openAdmin(kubeconfig) {
  const config = new KubeConfig();
  config.loadFromFile(kubeconfig);
  config.setCurrentContext(`${CONTEXT}-admin`);
  const core = config.makeApiClient(CoreV1Api);
  const batch = config.makeApiClient(BatchV1Api);
  const selector = `${PROJECT_LABEL}=${PROJECT}`;
  return {
    core,
    batch,
    /** The project's Jobs and pods in the namespace, by name. */
    async listLeft() {
      const [jobs, pods] = await Promise.all([
        batch.listNamespacedJob({ namespace: NAMESPACE, labelSelector: selector }),
        core.listNamespacedPod({ namespace: NAMESPACE, labelSelector: selector }),
      ]);
      return [
        ...jobs.items.map((job) => `job/${job.metadata.name}`),
        ...pods.items.map((pod) => `pod/${pod.metadata.name}`),
      ];
    },
    /** Waits until nothing of the project is left (a deleted Job's pod goes within seconds); returns what is left. */
    async waitNothingLeft(timeoutMs = 60_000) {
      let left = [];
      await waitFor(
        async () => {
          left = await this.listLeft();
          return left.length === 0;
        },
        { timeoutMs, everyMs: 500 },
      ).catch(() => {});
      return left;
    },
    /**
     * Resolves once a pod of the experiment runs: not the node's probe, which runs while the engines are prepared (a
     * Ctrl-C then is the preparing one, not the one that stops a run in flight).
     */
    async waitRunningPod(experiment, timeoutMs = 120_000) {
      return waitFor(
        async () => {
          const pods = await core.listNamespacedPod({ namespace: NAMESPACE, labelSelector: selector });
          return pods.items.find(
            (pod) => pod.status?.phase === 'Running' && pod.metadata?.annotations?.[LABELS.experiment] === experiment,
          );
        },
        { timeoutMs, everyMs: 250 },
      );
    },
  };
}

/** An experiments file (JSON is YAML) in `dir` that runs on the lab: `kubernetes:` plus the experiments given. */
export function writeLabConfig(dir, kubeconfig, experiments, extra = {}) {
  const file = join(dir, 'experiments.yml');
  const kubernetes = { context: CONTEXT, namespace: NAMESPACE, kubeconfig, ...extra };
  writeFileSync(file, `${JSON.stringify({ kubernetes, experiments }, null, 2)}\n`);
  return file;
}
