// One deployment file → the CPU and memory each of its containers is given, each with the place it is written:
// Kubernetes manifests (multi-document YAML, kubernetes.js) and Compose files (compose.js). A file that does not
// parse, or an amount that is no quantity, is an error with its line and column (exit 2): a budget guessed from a
// file the lab misread would be worse than none. A Helm template (`{{ }}`) is not YAML until rendered: a warning.
import { readFileSync } from 'node:fs';
import { LineCounter, parseAllDocuments } from 'yaml';
import { LabError, LabErrors } from '../errors.js';
import { formatPath } from '../config/diagnostics/paths.js';
import { MIN_MEMORY, MIN_MEMORY_BYTES } from '../domain/memory.js';
import { isComposeFile, listComposeServices } from './compose.js';
import { isKubernetesObject, listKubernetesContainers, readKubernetesService } from './kubernetes.js';
import {
  formatDockerMemory,
  parseComposeBytes,
  parseComposeCpus,
  parseKubernetesQuantity,
  roundUpToMillicores,
} from './quantities.js';

/**
 * @typedef {object} ManifestSource  one container (a Kubernetes container, a Compose service)
 * @property {string} file       as `shown`
 * @property {'kubernetes'|'compose'} format
 * @property {string} object     Deployment/api, service api
 * @property {string|null} container
 * @property {{ cpus: number, field: string, written: string, line: number, column: number }|null} cpu
 * @property {{ bytes: number, docker: string, field: string, written: string, line: number, column: number }|null}
 *   memory
 * @property {number} [line]     where the container (the Compose service) is written
 * @property {'container'|'init'} [role]  Kubernetes: an init container runs before the service and serves nothing
 * @property {{ port: number, name?: string }[]} [ports]  Kubernetes: the container's ports
 * @property {object} [labels]   Kubernetes: its pod's labels, which a Service selects
 * @property {number|null} [replicas]  Kubernetes: the object's `replicas`
 * @property {string} [service]  Compose: the service's name
 * @property {boolean} [builds]  Compose: built from source (`build:`)
 * @property {string|null} [image]  Compose
 */

/**
 * @param {string} file  absolute path
 * @param {{ shown?: string, named?: boolean }} [options]  shown: the path comments name it by; named: given with
 *   --from, so a file with no Kubernetes object and no Compose services in it is a mistake
 * @returns {{ sources: ManifestSource[], services: { file, object, selector, targets, line }[], warnings: { file,
 *   shown, line?, column?, message, hint }[] }}  services: Kubernetes Services; warnings: what was not read (a Helm
 *   template, a value filled in later), in plan-warnings.js's form
 * @throws {LabError} ERR_MANIFEST_INVALID (exit 2), with file, line and column
 */
export function readManifest(file, { shown = file, named = false } = {}) {
  const text = readText(file);
  if (isHelmTemplate(text))
    return {
      sources: [],
      services: [],
      warnings: [
        {
          file,
          shown,
          message: 'not read: a Helm template (`{{ }}`), which is YAML only once rendered',
          hint: 'render it (`helm template RELEASE CHART > rendered.yaml`) and pass the output: init --from rendered.yaml',
        },
      ],
    };
  const lineCounter = new LineCounter();
  const documents = parseAllDocuments(text, { lineCounter, prettyErrors: true });
  // The first error of a document: the ones after it are mostly what the first one threw off.
  const syntax = (Array.isArray(documents) ? documents : []).flatMap((document) =>
    document.errors.slice(0, 1).map((error) => createSyntaxError(file, error)),
  );
  if (syntax.length > 0) throw combine(syntax);
  const errors = [];
  const warnings = [];
  const sources = [];
  const services = [];
  let recognized = false;
  for (const document of Array.isArray(documents) ? documents : []) {
    const value = convertToJs(document, file);
    const format = isKubernetesObject(value) ? 'kubernetes' : isComposeFile(value) ? 'compose' : null;
    if (!format) continue;
    recognized = true;
    const place = (path) => locate(document, path, lineCounter);
    const service = format === 'kubernetes' ? readKubernetesService(value) : null;
    if (service) services.push({ file: shown, ...service, ...place([]) });
    const entries = format === 'kubernetes' ? listKubernetesContainers(value) : listComposeServices(value);
    for (const entry of entries) {
      const read = (amount, what) => {
        if (!amount) return null;
        if (typeof amount.value === 'string' && /\$\{|\{\{/.test(amount.value)) {
          warnings.push({
            file,
            shown,
            ...place(amount.path),
            message: `${entry.object}: \`${amount.field}: ${amount.value}\` is filled in later (a variable or a template): not read`,
            hint: `pass the value yourself: init --cpus AMOUNT (and set \`memory:\` in the file written)`,
          });
          return null;
        }
        try {
          return readAmount(format, what, amount, { file, place });
        } catch (error) {
          errors.push(error);
          return null;
        }
      };
      const { cpu, memory, path, ...facts } = entry;
      sources.push({
        file: shown,
        format,
        ...facts,
        line: place(path).line,
        cpu: read(cpu, 'cpu'),
        memory: read(memory, 'memory'),
      });
    }
  }
  if (errors.length > 0) throw combine(errors);
  if (named && !recognized)
    throw new LabError(
      'ERR_MANIFEST_INVALID',
      'holds no Kubernetes object (kind, apiVersion) and no Compose `services:`',
      {
        file,
        hint: 'name a Kubernetes manifest (Deployment, StatefulSet, DaemonSet, Job, CronJob, Pod) or a Compose file',
      },
    );
  return { sources, services, warnings };
}

// Kubernetes quantities (1500m, "0.5", 2; 512Mi, 1G) or Compose's values ("0.5"; 512m, 1gb). Zero is no limit.
function readAmount(format, what, amount, { file, place }) {
  const parsed =
    format === 'kubernetes'
      ? parseKubernetesQuantity(amount.value)
      : what === 'cpu'
        ? parseComposeCpus(amount.value)
        : parseComposeBytes(amount.value);
  const where = { file, ...place(amount.path), path: formatPath(amount.path) };
  if (parsed === undefined || parsed < 0)
    throw new LabError(
      'ERR_MANIFEST_INVALID',
      `\`${amount.field}\` is ${JSON.stringify(amount.value)}, not ${describeExpected(format, what)}`,
      { ...where, hint: EXAMPLES[format][what] },
    );
  if (parsed === 0) return null;
  // As the file writes it: "0.5" quoted, 1500m plain.
  const written =
    typeof amount.value === 'string' && /^[0-9.]+$/.test(amount.value)
      ? JSON.stringify(amount.value)
      : String(amount.value);
  if (what === 'cpu') return { cpus: roundUpToMillicores(parsed), field: amount.field, written, ...where };
  const bytes = Math.ceil(parsed);
  if (bytes < MIN_MEMORY_BYTES)
    throw new LabError(
      'ERR_MANIFEST_INVALID',
      `\`${amount.field}\` is ${written} (${bytes} bytes): less than the ${MIN_MEMORY} Docker gives any container`,
      { ...where, hint: `a Node.js process needs more; ${EXAMPLES[format].memory}` },
    );
  return { bytes, docker: formatDockerMemory(bytes), field: amount.field, written, ...where };
}

const EXAMPLES = {
  kubernetes: { cpu: 'write e.g. `cpu: 1500m` or `cpu: "1.5"`', memory: 'write e.g. `memory: 512Mi`' },
  compose: { cpu: 'write e.g. `cpus: "0.5"`', memory: 'write e.g. `mem_limit: 512m`' },
};

function describeExpected(format, what) {
  if (format === 'kubernetes')
    return what === 'cpu'
      ? 'a Kubernetes CPU quantity (1500m, "1.5", 2)'
      : 'a Kubernetes memory quantity (512Mi, 1Gi, 1G)';
  return what === 'cpu' ? 'a number of CPUs ("0.5", 1.5)' : 'a byte value (512m, 1g, 1073741824)';
}

// Go template actions outside quotes (`{{- include … }}`, `cpu: {{ .Values.cpu }}`): the file is no YAML yet. A quoted
// `"{{ .Values.image }}"` parses, and is caught where it is read as an amount.
function isHelmTemplate(text) {
  return text.split('\n').some((line) =>
    line
      .replace(/"(?:[^"\\]|\\.)*"|'[^']*'/g, '')
      .replace(/(^|\s)#.*$/, '')
      .includes('{{'),
  );
}

function readText(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new LabError('ERR_MANIFEST_INVALID', `cannot read it: ${error.code ?? error.message}`, {
      file,
      hint: 'name a file that exists: init --from FILE',
      cause: error,
    });
  }
}

function convertToJs(document, file) {
  try {
    return document.toJS();
  } catch (error) {
    throw new LabError('ERR_MANIFEST_INVALID', error.message, { file, hint: 'use fewer YAML aliases', cause: error });
  }
}

function createSyntaxError(file, error) {
  const [start] = error.linePos ?? [];
  return new LabError('ERR_MANIFEST_INVALID', error.message.replace(/ at line \d+, column \d+:[\s\S]*$/, ''), {
    file,
    line: start?.line,
    column: start?.col,
    hint: 'init reads it as YAML, as kubectl and docker compose do: check the quotes, brackets and indentation here',
    cause: error,
  });
}

function locate(document, path, lineCounter) {
  const node = document.getIn(path, true);
  if (!node?.range) return {};
  const { line, col } = lineCounter.linePos(node.range[0]);
  return { line, column: col };
}

function combine(errors) {
  return errors.length === 1 ? errors[0] : new LabErrors(errors);
}
