// init(): a first experiments.yml for the person's own code (a function, an HTTP app or any command), written
// beside it, checked by the same pipeline as `plan` before it is written, and never over an existing file. Its CPU
// budgets and memory limit are the service's own where its deployment files say (Kubernetes manifests, Compose
// files: runner/manifests/), and the libuv pool is an axis when the code calls what runs on the pool
// (user-code/pool-calls.js).
import { existsSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseShellWords } from 'shell-quote';
import { LabError } from '../errors.js';
import { parseYaml, validateConfig } from '../config/load-config.js';
import { EXPERIMENT_NAME_PATTERN, SCHEMA_FILE } from '../config/schema.js';
import { parseCpuAmount } from '../domain/cpu-quantity.js';
import { describeSource } from '../manifests/budgets.js';
import { readDeployment } from '../manifests/read-deployment.js';
import { countEngineCpus } from './engine-cpus.js';
import { formatInitFile } from './init-file.js';
import { DEFAULT_CONFIG_FILE } from './plan.js';

const USAGE_HINT =
  'give one of: --script FILE [--export NAME], --http-app FILE [--export NAME], --command "PROGRAM ARGS" [--image IMAGE]';
const CPUS_HINT = 'numbers of CPUs or Kubernetes CPU quantities, comma-separated: --cpus 1.5,2 or --cpus 500m,1500m';

/**
 * @param {object} options  exactly one of script, httpApp, command
 * @param {string} [options.script]      a module exporting the function (relative to the working directory)
 * @param {string} [options.httpApp]     a module exporting a (req, res) handler or a server factory
 * @param {string} [options.command]     a command line, split as a shell would but never run by one
 * @param {string} [options.export]      the export (script, http app; default: default)
 * @param {string} [options.image]       the command's image (default: the lab's own, which has node, perl, sh)
 * @param {string} [options.config]      the file to write (default: experiments.yml)
 * @param {Array<number|string>} [options.budgets]  CPU budgets (1.5, "1500m"): no deployment file is looked for
 * @param {string[]} [options.from]      deployment files to read (Kubernetes manifests, Compose files), instead of
 *   looking in the module's project
 * @param {{ count: number, source: string }} [options.cpus]  the engine's CPUs, instead of asking the engine
 * @param {string} [options.invocation]  the command line quoted in the file's first line
 * @param {number|string} [options.rate]  http app: the open-loop arrival rate to measure at (req/s)
 * @param {number|string} [options.sloP99]  http app: the SLO's p99 (ms): the capacity search
 * @returns {Promise<{ file: string, kind: string, cpus: { count: number, source: string }, budgets: { values:
 *   number[], from: string }|null, memory: string|null, warnings: object[], text: string }>}  budgets: null when
 *   the file has the engine's CPUs; warnings: files not read (a Helm template), as plan's warnings
 */
export async function init(options = {}) {
  const kind = chooseKind(options);
  const traffic = readTraffic(options, kind);
  const file = path.resolve(options.config ?? DEFAULT_CONFIG_FILE);
  refuseExisting(file);
  const folder = path.dirname(file);
  const code =
    kind === 'command'
      ? readCommand(options)
      : readModule(options[kind === 'script' ? 'script' : 'httpApp'], folder, options.export);
  const cpus = options.cpus ?? (await countEngineCpus());
  const given = readGivenBudgets(options.budgets, cpus);
  const from = (options.from ?? []).map((each) => path.resolve(each));
  // Budgets given are the budgets: the files are read only when named, for their memory limit.
  const deployment =
    given && from.length === 0
      ? null
      : readDeployment({ from, start: code.absolute ? path.dirname(code.absolute) : folder, folder });
  const { budgets, notes } = given ? describeGiven(given, deployment) : describeDeployment(deployment, cpus);
  const pool = kind === 'command' ? null : await choosePool(code, folder, budgets, cpus);
  const text = formatInitFile({
    kind,
    name: nameExperiment(code.base),
    invocation: options.invocation ?? `node-threads-lab init`,
    schema: referSchema(folder),
    cpus,
    budgets: budgets ?? undefined,
    notes,
    memory: describeMemory(deployment?.memory),
    pool: pool ?? undefined,
    ...traffic,
    ...code,
  });
  // The file must pass what `plan` checks; if not, the fault is this template's, and nothing is written.
  const { raw, locate } = parseYaml(text, file);
  validateConfig(raw, { file, locate, host: { cpus: Math.max(cpus.count, 1) } });
  writeExclusively(file, text);
  return {
    file,
    kind,
    cpus,
    budgets: budgets && { values: budgets.values.map((budget) => budget.cpus), from: budgets.summary },
    memory: deployment?.memory?.docker ?? null,
    warnings: deployment?.warnings ?? [],
    text,
  };
}

// --cpus 1.5,2: CPU amounts as experiments.yml takes them, each one the engine can give.
function readGivenBudgets(given, cpus) {
  if (given === undefined) return null;
  const values = [given].flat().flatMap((each) => (typeof each === 'string' ? each.split(',') : [each]));
  const amounts = values.map((value) => {
    const text = typeof value === 'string' ? value.trim() : value;
    const amount = parseCpuAmount(typeof text === 'string' && /^[0-9.]+$/.test(text) ? Number(text) : text);
    if (amount === undefined)
      throw new LabError('ERR_USAGE', `--cpus: ${JSON.stringify(text)} is not a CPU amount`, { hint: CPUS_HINT });
    if (amount > cpus.count)
      throw new LabError(
        'ERR_USAGE',
        `--cpus: ${text} is more than the ${cpus.count} CPUs of this engine (${cpus.source}); Docker refuses a larger quota`,
        { hint: `give budgets up to ${cpus.count}, or run on a bigger engine (\`engines:\` in the file)` },
      );
    return amount;
  });
  return [...new Set(amounts)].sort((a, b) => a - b);
}

function describeGiven(given, deployment) {
  return {
    budgets: {
      values: given.map((cpus) => ({ cpus, sources: [] })),
      from: 'given with --cpus',
      axis: 'the budgets given with --cpus',
      summary: '--cpus',
    },
    notes: describeUnread(deployment),
  };
}

// The deployment's budgets that this engine can give, each with its sources; what was left out, in the header.
function describeDeployment(deployment, cpus) {
  const fits = deployment.budgets.filter((budget) => budget.cpus <= cpus.count);
  const left = deployment.budgets.filter((budget) => budget.cpus > cpus.count);
  const folder = deployment.looked === '.' ? 'this folder' : deployment.looked;
  const where = deployment.looked
    ? `in ${folder}${deployment.files.length > 0 ? ` (read: ${deployment.files.join(', ')})` : ''}`
    : `in ${deployment.files.join(', ')}`;
  const notes = [
    ...(fits.length === 0
      ? [
          `${deployment.files.length === 0 ? 'No Kubernetes manifest or Compose file' : left.length > 0 ? 'No CPU budget this engine can give' : 'No CPU limit or request'} ${where}; name your budgets with --from FILE or --cpus 1.5,2.`,
        ]
      : []),
    ...left.map(
      (budget) =>
        `Left out: ${budget.cpus} CPUs (${budget.sources.map(describeSource).join('; ')}), more than this engine's ${cpus.count}; run it on a bigger engine (\`engines:\`).`,
    ),
    ...deployment.without.map((source) => `No CPU limit or request, so no budget: ${describeSource(source)}.`),
    ...describeUnread(deployment),
  ];
  if (fits.length === 0) return { budgets: null, notes };
  const files = [...new Set(fits.flatMap((budget) => budget.sources.map((source) => source.file)))];
  return {
    budgets: {
      values: fits.map((budget) => ({
        cpus: budget.cpus,
        sources: budget.sources.map(
          (source, index) =>
            `${index === 0 ? '' : 'and '}${describeSource(source)} (${source.cpu.field} ${source.cpu.written})`,
        ),
      })),
      from: 'the budgets your deployment files set, each with its source under `cpus:`',
      axis: 'one per budget your deployment files set:',
      summary: files.join(', '),
    },
    notes,
  };
}

function describeUnread(deployment) {
  return (deployment?.warnings ?? []).map(
    (warning) => `${warning.shown}${warning.line ? `:${warning.line}` : ''}: ${warning.message}.`,
  );
}

// One limit for the experiment: the smallest (budgets.js), and where each came from.
function describeMemory(memory) {
  if (!memory) return undefined;
  const named = (source) => `${describeSource(source)} (${source.memory.field} ${source.memory.written})`;
  const oom = 'past it a run is killed and recorded as `oom`, as the container would be';
  if (memory.sources.length === 1 && memory.others.length === 0 && memory.unlimited.length === 0)
    return { docker: memory.docker, lines: [`the container's memory limit, ${named(memory.sources[0])}: ${oom}`] };
  return {
    docker: memory.docker,
    lines: [
      `the smallest memory limit of the containers, for every budget: a setting must fit everywhere; ${oom}:`,
      ...[...memory.sources, ...memory.others].map(named),
      ...memory.unlimited.map((source) => `${describeSource(source)}: no memory limit`),
    ],
  };
}
// The pool is a knob of this code when it calls what runs on it: 1, Node's default 4, and powers of two up to twice
// the largest budget's CPUs (pool work that computes gains up to the CPUs; work that waits, fs or dns, may gain
// beyond).
async function choosePool(code, from, budgets, cpus) {
  const { findPoolCalls, formatPoolCall } = await import('../user-code/pool-calls.js');
  const { findTypeStripper } = await import('../user-code/check-user-code.js');
  const found = findPoolCalls(code.absolute, { root: code.root, strip: await findTypeStripper() });
  if (found.calls.length === 0) {
    const packages =
      found.packages.length > 0
        ? `; the packages it imports are not read (${found.packages.join(', ')}): one that uses the pool (a native addon such as bcrypt) makes it a knob, add \`uv_threadpool_size: [1, 4]\``
        : '';
    const unread =
      found.unread.length > 0
        ? `; not read: ${found.unread.map((each) => `${path.relative(from, each.file)} (${each.why})`).join(', ')}`
        : '';
    return {
      none: `no uv_threadpool_size: no call in your ${found.files.length === 1 ? 'module' : `${found.files.length} files`} runs on libuv's pool${packages}${unread}`,
    };
  }
  const top = Math.ceil(budgets ? Math.max(...budgets.values.map((budget) => budget.cpus)) : cpus.count);
  const values = [];
  for (let size = 1; size <= Math.max(4, 2 * top); size *= 2) values.push(size);
  return {
    values,
    comment: `libuv pool (UV_THREADPOOL_SIZE): 1 to twice the CPUs, with Node's default 4; your code calls on it:`,
    calls: found.calls.map((call) => formatPoolCall(call, from)),
  };
}

// The modeline editors read (yaml-language-server): the schema as installed, relative to the file when the package
// is inside its folder (node_modules/node-threads-lab/…, or this checkout), else its absolute path.
function referSchema(folder) {
  const relative = path.relative(folder, SCHEMA_FILE);
  return relative.startsWith('..') || path.isAbsolute(relative) ? SCHEMA_FILE : relative.split(path.sep).join('/');
}

function chooseKind({ script, httpApp, command, image }) {
  const given = [
    ['script', script],
    ['http-app', httpApp],
    ['command', command],
  ].filter(([, value]) => value !== undefined);
  if (given.length !== 1) {
    throw new LabError(
      'ERR_USAGE',
      given.length === 0
        ? 'init needs the code to measure'
        : `init writes a file for one kind of code, found ${given.map(([name]) => `--${name}`).join(' and ')}`,
      { hint: USAGE_HINT },
    );
  }
  if (image !== undefined && given[0][0] !== 'command')
    throw new LabError('ERR_USAGE', '--image goes with --command', {
      hint: "a function or an HTTP app runs in the lab's own image",
    });
  return given[0][0];
}

// --rate and --slo-p99: the traffic an http app gets and its SLO, as positive numbers.
function readTraffic({ rate, sloP99 }, kind) {
  const read = (value, flag, hint) => {
    if (value === undefined) return undefined;
    const number = Number(value);
    if (!(number > 0))
      throw new LabError('ERR_USAGE', `${flag}: expected a positive number, found ${JSON.stringify(value)}`, { hint });
    if (kind !== 'http-app')
      throw new LabError('ERR_USAGE', `${flag} goes with --http-app`, {
        hint: "a rate and an SLO are an HTTP service's: give --http-app FILE",
      });
    return number;
  };
  return {
    rate: read(rate, '--rate', 'requests per second, e.g. --rate 200'),
    sloP99: read(sloP99, '--slo-p99', 'milliseconds, e.g. --slo-p99 50'),
  };
}

function refuseExisting(file) {
  if (!existsSync(file)) return;
  throw new LabError('ERR_FILE_EXISTS', `${file} exists already; init never overwrites a file`, {
    hint: 'write another one with --config FILE (e.g. --config experiments-2.yml), or move this one away',
  });
}

function readModule(given, folder, exportName = 'default') {
  const absolute = path.resolve(given);
  if (!existsSync(absolute) || !statSync(absolute).isFile()) {
    throw new LabError('ERR_USAGE', `no file at ${absolute}`, {
      hint: 'name the module that exports your code, relative to the current folder',
    });
  }
  const relative = path.relative(folder, absolute);
  const inside = !relative.startsWith('..') && !path.isAbsolute(relative);
  return {
    file: relative.split(path.sep).join('/'),
    exportName,
    mountHere: inside,
    base: path.basename(absolute, path.extname(absolute)),
    absolute,
    // The folder the container mounts: this one (`root: .`) or the module's own.
    root: inside ? folder : path.dirname(absolute),
  };
}

function readCommand({ command, image }) {
  // `$NAME` stays as written: no shell will expand it, and the file should say what runs.
  const words = parseShellWords(command, (name) => `$${name}`);
  if (words.length === 0) throw new LabError('ERR_USAGE', '--command is empty', { hint: USAGE_HINT });
  const special = words.find((word) => typeof word !== 'string');
  if (special) {
    const shown = special.op === 'glob' ? special.pattern : (special.op ?? `#${special.comment}`);
    throw new LabError('ERR_USAGE', `--command runs without a shell, so \`${shown}\` would mean nothing there`, {
      hint: 'name the program and its arguments (--command "perl sieve.pl 2000000"), or hand the line to a shell: --command "sh -c \'a | b\'"',
    });
  }
  return { argv: words, image, base: path.basename(words[0]) };
}

function nameExperiment(base) {
  const name = base.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '');
  return new RegExp(EXPERIMENT_NAME_PATTERN).test(name) ? name : 'my-code';
}

function writeExclusively(file, text) {
  try {
    // 'wx': created here or not at all, even if the file appeared since the check above.
    writeFileSync(file, text, { flag: 'wx' });
  } catch (cause) {
    if (cause.code === 'EEXIST') refuseExisting(file);
    throw new LabError('ERR_OUTPUT_UNWRITABLE', `cannot write ${file}: ${cause.message}`, {
      hint: 'write it elsewhere with --config FILE',
      cause,
    });
  }
}
