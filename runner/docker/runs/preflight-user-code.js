// Before the first run of a matrix: one short container per user file (script, http app) and one
// check per command, so a typo in an export name or an image tag is exit 2 with file:line:col, not
// dozens of failed rows. A script's preflight also calls the function once (a primer, not
// measured): the numeric keys it returns become the user_<key> columns, which runs.csv's header
// needs before any row exists. A command's primer is one unmeasured run of the command itself. An http app
// (`app`) and a service's own start command (`start`) are started once and sent the request every run will send:
// an answer with another status than `status` stops the matrix here, with the request, the status and the first
// line of the body, rather than failing every run of it.
import path from 'node:path';
import { readLastLineNumbers } from '../../../images/workload/lib/user-numbers.js';
import { getWorkload } from '../../domain/workloads.js';
import { LabError } from '../../errors.js';
import { runCommandTasks } from './command-run.js';
import { describePreflightFailure, describeUnfinishedStdout, readPreflightReport } from './preflight-reason.js';
import { imageKey } from '../../plan/image-choice.js';
import { LABELS, runContainer } from './run-container.js';

const PREFLIGHT_ENTRYPOINT = ['node', '/app/preflight.js'];
// How the engine says that argv[0] is not there (runc's exec error, passed on by dockerd).
const NOT_FOUND = /executable file not found|no such file or directory|permission denied/i;
const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * Checks every user file and command of the plans; sets plan.userColumns (unless a resumed folder fixed them).
 * @param {Map<number|string, {tag: string}>} images  imageKey(major, choice) → workload image
 */
export async function preflightUserCode(docker, { plans, images, config, onProgress = () => {} }) {
  for (const plan of plans) {
    const keys = new Set();
    const checked = new Set();
    for (const cell of plan.cells) {
      const check = describeCheck(plan, cell);
      if (!check || checked.has(check.key)) continue;
      checked.add(check.key);
      const context = {
        docker,
        plan,
        cell,
        image: images.get(imageKey(cell.nodeMajor, cell.imageChoice)).tag,
        config,
        onProgress,
      };
      const found =
        check.kind === 'command'
          ? await preflightCommand(context, check)
          : check.kind === 'start'
            ? await preflightStart(context, check)
            : await preflightModule(context, check);
      for (const key of found) keys.add(key);
    }
    plan.userColumns ??= [...keys].map((key) => `user_${key}`);
  }
}

function describeCheck(plan, cell) {
  const at = ['experiments', plan.experiment.name, 'params', cell.workload];
  const { params } = cell.container;
  if (getWorkload(cell.workload).external)
    return { kind: 'command', key: JSON.stringify([params.image, params.argv, params.root]), at };
  if (getWorkload(cell.workload).serves && params.start !== undefined)
    return {
      kind: 'start',
      key: JSON.stringify(['start', params.start, params.port, params.request, cell.container.mounts, cell.nodeMajor]),
      target: params,
      at,
    };
  const userCode = getWorkload(cell.workload).userCode;
  const target = userCode && userCode.at.reduce((object, key) => object?.[key], params);
  if (!target?.file) return null;
  return {
    kind: userCode.kind,
    key: JSON.stringify([userCode.kind, target.file, target.export, cell.nodeMajor]),
    target,
    at: [...at, ...userCode.at],
  };
}

async function preflightModule({ docker, plan, cell, image, config, onProgress }, { kind, target, at }) {
  const shown = path.relative(
    process.cwd(),
    path.join(cell.container.mounts[0].source, target.file.replace(/^\/lab\/user\//, '')),
  );
  onProgress(`${shown} export \`${target.export}\``);
  const request = kind === 'app' ? describeRequest(target) : undefined;
  const { raw, report } = await runPreflight(
    { docker, plan, cell, image },
    { kind, file: target.file, export: target.export, args: target.args ?? {}, request },
  );
  if (!report) {
    const reason = describePreflightFailure(raw, { timeoutS: plan.experiment.timeout });
    const exportIssue = /has no export|is a \w+, not a function/.test(reason);
    // An app whose export is there but of a shape no server can be made of (http/app-shape.js says which and how).
    const shapeIssue = kind === 'app' && /which the lab cannot serve|already listening/.test(reason);
    throw locatedError(
      config,
      [...at, exportIssue || shapeIssue ? 'export' : 'file'],
      `preflight of ${shown}: ${reason}`,
      shapeIssue
        ? 'change the module as the message says, or point `export:` at what builds the app (docs/own-code.md#your-framework)'
        : exportIssue
          ? `write the name of an exported function in \`export:\``
          : 'fix the module so that it loads, then run the matrix again',
    );
  }
  if (report.stdout?.unfinished) {
    throw locatedError(
      config,
      [...at, 'file'],
      `preflight of ${shown}: ${describeUnfinishedStdout(report.stdout)}`,
      'print with a final newline (console.log does), or to stderr (console.error): stdout is where each run writes its result line',
    );
  }
  if (report.shape) onProgress(`${shown} export \`${target.export}\`: ${report.shape}`);
  if (request) checkAnswer(config, at, request, target.status, report.answer, onProgress);
  if (report.callError) onProgress(`the first call of ${shown} threw (${report.callError}); every run will record it`);
  return report.columns;
}

// The service's own start command, started as a run starts it (the cell's environment and limits), sent the request.
async function preflightStart({ docker, plan, cell, image, config, onProgress }, { target, at }) {
  const shown = Array.isArray(target.start) ? target.start.join(' ') : target.start;
  const request = describeRequest(target.request);
  onProgress(`\`${shown}\`: started once and sent ${request.method} ${request.path}`);
  const { raw, report } = await runPreflight(
    { docker, plan, cell, image },
    {
      kind: 'start',
      start: target.start,
      port: target.port,
      ready: target.ready,
      readyTimeout: target.readyTimeout,
      request,
    },
    cell.env,
  );
  if (!report)
    throw locatedError(
      config,
      [...at, 'start'],
      `preflight of \`${shown}\`: ${describePreflightFailure(raw, { timeoutS: plan.experiment.timeout })}`,
      'start it by hand the way the file says (the same command, port and environment) and fix what stops it',
    );
  checkAnswer(config, [...at, 'request'], request, target.request?.status ?? 200, report.answer, onProgress);
  return [];
}

// One preflight container with the cell's limits and mount: its raw outcome, and its report (null when none).
async function runPreflight({ docker, plan, cell, image }, spec, env = {}) {
  const raw = await runContainer(docker, {
    image,
    env: { ...env, LAB_PREFLIGHT: JSON.stringify(spec) },
    limits: cell.limits,
    mounts: cell.container.mounts,
    timeoutMs: plan.experiment.timeout * 1000,
    entrypoint: PREFLIGHT_ENTRYPOINT,
    labels: { [LABELS.experiment]: plan.experiment.name, [LABELS.run]: 'preflight' },
  });
  return { raw, report: raw.exitCode === 0 && !raw.timedOut ? readPreflightReport(raw.stdout) : null };
}

/** The request every run sends, as the preflight sends it once. */
export function describeRequest({ method = 'GET', path: route = '/', headers = {}, body = '' } = {}) {
  return { method, path: route, headers, body };
}

/** An answer with another status than the one expected stops the matrix (exit 2), before any measured run. */
export function checkAnswer(config, at, request, status = 200, answer, onProgress = () => {}) {
  if (!answer) return;
  if (answer.status === status) {
    onProgress(`${request.method} ${request.path} answered ${answer.status}`);
    return;
  }
  throw locatedError(
    config,
    [...at, 'path'],
    `${request.method} ${request.path} answered ${answer.status}, not the ${status} expected${answer.firstLine ? `: ${answer.firstLine}` : ' (empty body)'}`,
    'write a request your app serves (`method`, `path`, `headers`, `body`), or the status it answers with (`status`); no run was measured',
  );
}

async function preflightCommand({ docker, plan, cell, image: labImage, config, onProgress }, { at }) {
  const { params, mounts, workingDir } = cell.container;
  const image = params.image ?? labImage;
  const info = await docker
    .getImage(image)
    .inspect()
    .catch((error) => {
      if (error?.statusCode !== 404) throw error;
      throw locatedError(
        config,
        [...at, 'image'],
        `image ${image} is not on the engine (nothing is pulled)`,
        `build or load it first (\`docker build -t ${image} .\`, \`docker load -i image.tar\`), or leave \`image\` out for the lab's own image`,
      );
    });
  onProgress(`${image} ${params.argv.join(' ')} (one unmeasured run for its result keys)`);
  // The engine resolves argv[0] when it starts the container, and refuses to start it when the
  // program is missing: the primer run is also the check that argv[0] exists.
  const outcome = await runCommandTasks(docker, {
    image,
    watcherImage: labImage,
    argv: params.argv,
    tasks: 1,
    env: cell.env,
    limits: cell.limits,
    mounts,
    workingDir,
    labels: { [LABELS.experiment]: plan.experiment.name, [LABELS.run]: 'preflight' },
    timeoutMs: plan.experiment.timeout * 1000,
  }).catch((error) => {
    if (!NOT_FOUND.test(error?.message ?? '')) throw error;
    const where = params.argv[0].includes('/') ? `at ${params.argv[0]}` : `in its PATH (${readPath(info)})`;
    throw locatedError(
      config,
      [...at, 'argv', 0],
      `\`${params.argv[0]}\` is not in image ${image} ${where}`,
      'write a program the image has (`docker run --rm --entrypoint ls IMAGE /usr/bin` lists some), or an absolute path',
    );
  });
  const [task] = outcome.tasks;
  if (task.exitCode !== 0) onProgress(`the command exited with code ${task.exitCode}; every run will record it`);
  return Object.keys(readLastLineNumbers(task.stdout));
}

function readPath(info) {
  return (info.Config?.Env ?? []).find((entry) => entry.startsWith('PATH='))?.slice(5) ?? DEFAULT_PATH;
}

function locatedError(config, at, message, hint) {
  const { line, column } = config.locate?.(at) ?? {};
  return new LabError('ERR_PREFLIGHT', message, { file: config.file, line, column, path: formatAt(at), hint });
}

function formatAt(at) {
  return at.reduce(
    (text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${part}` : part),
    '',
  );
}
