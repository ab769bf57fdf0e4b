// Reaching a cluster: the one @kubernetes/client-node import (1.4.x: 2.x needs Node 22.19). A kubeconfig and one of
// its contexts, as `kubectl` reads them (KUBECONFIG, else ~/.kube/config), and a namespace. Every call goes through
// `call`, which bounds it in time and turns a cluster that stopped answering into the backend contract's backendLost.
import { BatchV1Api, CoreV1Api, KubeConfig, VersionApi } from '@kubernetes/client-node';
import { backendLost } from '../backend/contract.js';
import { LabError } from '../errors.js';

// A request the API server has not answered in this long counts as a lost API server, not a slow one.
export const CALL_TIMEOUT_MS = 15_000;
// The socket refused, reset or unreachable: the API server went away (node-fetch's system errors carry these codes).
const GONE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ENOTFOUND']);

/**
 * @typedef {object} Cluster
 * @property {string} name       how run.json and the progress lines name it: `kubernetes:<context>/<namespace>`
 * @property {string} context
 * @property {string} namespace
 * @property {string} server     the API server's URL
 * @property {CoreV1Api} core
 * @property {BatchV1Api} batch
 * @property {<T>(what: string, request: () => Promise<T>) => Promise<T>} call
 */

/**
 * @param {{ kubeconfig?: string, context?: string, namespace?: string }} where  the config's `kubernetes:` block
 * @returns {Cluster}
 */
export function openCluster({ kubeconfig, context, namespace } = {}) {
  const config = new KubeConfig();
  try {
    if (kubeconfig) config.loadFromFile(kubeconfig);
    else config.loadFromDefault();
  } catch (cause) {
    throw new LabError('ERR_USAGE', `cannot read the kubeconfig ${kubeconfig ?? '(KUBECONFIG or ~/.kube/config)'}`, {
      hint: 'name the file with `kubernetes: {kubeconfig: PATH}`, or set KUBECONFIG',
      cause,
    });
  }
  const chosen = context ?? config.getCurrentContext();
  const known = config.getContexts().map((entry) => entry.name);
  if (!known.includes(chosen)) {
    throw new LabError('ERR_USAGE', `the kubeconfig has no context \`${chosen}\``, {
      hint: `its contexts: ${known.join(', ') || '(none)'}; set \`kubernetes: {context: NAME}\``,
    });
  }
  config.setCurrentContext(chosen);
  const ns = namespace ?? config.getContextObject(chosen)?.namespace ?? 'default';
  const name = `kubernetes:${chosen}/${ns}`;
  return {
    name,
    context: chosen,
    namespace: ns,
    server: config.getCurrentCluster()?.server ?? '',
    core: config.makeApiClient(CoreV1Api),
    batch: config.makeApiClient(BatchV1Api),
    version: config.makeApiClient(VersionApi),
    call: (what, request) => callBounded(name, what, request),
  };
}

async function callBounded(name, what, request) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`no answer within ${CALL_TIMEOUT_MS / 1000} s`), { code: 'ETIMEDOUT' })),
      CALL_TIMEOUT_MS,
    );
  });
  const asked = request();
  try {
    return await Promise.race([asked, late]);
  } catch (error) {
    if (isGone(error)) {
      throw backendLost(`the Kubernetes API server of ${name} stopped answering (${what}: ${describeError(error)})`, {
        engine: name,
        hint: 'rows of the finished runs are kept; once the cluster answers again, resume the folder (--resume DIR)',
        cause: error,
      });
    }
    throw error;
  } finally {
    clearTimeout(timer);
    asked.catch(() => {});
  }
}

export function isGone(error) {
  return GONE.has(error?.code) || GONE.has(error?.errno) || GONE.has(error?.cause?.code);
}

/** An ApiException's status and the API server's own message, or the error's message. */
export function describeError(error) {
  const body = typeof error?.body === 'string' ? safeParse(error.body) : error?.body;
  if (typeof error?.code === 'number') return `HTTP ${error.code}${body?.message ? `: ${body.message}` : ''}`;
  return error?.code ? `${error.code}: ${error.message}` : String(error?.message ?? error);
}

/** The HTTP status of an API answer that was an error (404 gone, 403 forbidden, 409 conflict), else undefined. */
export function statusOf(error) {
  return typeof error?.code === 'number' ? error.code : undefined;
}

function safeParse(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
