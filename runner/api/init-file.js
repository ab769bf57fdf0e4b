// The experiments.yml `init` writes for a person's own code: one experiment whose knobs are those the service has in
// production (the libuv pool when its code calls APIs that run on it, processes the way it runs as several, its
// worker pool's size where its code reads it; for a function, worker threads), the CPU budgets and memory limit of the
// container that serves it (else CPUs up to what the engine has), the request its app serves, and a comment on every
// line saying what it does and where it comes from. `production:` records where production sets each knob, which
// `plan` shows and the advice reads. Pure: the caller reads the service (runner/service/) and the engine (api/init.js).

import { EXPERIMENT_DEFAULTS } from '../config/defaults.js';
import { defaultRepetitions } from '../config/normalize.js';
import { capOf, formatTrafficKeys, formatTrafficLoad } from './init-traffic.js';

const COMMENT_COLUMN = 44;
const CAP = EXPERIMENT_DEFAULTS.adaptive_max_repetitions;
// A comment that says more than a line holds: shown under its key, so long.
const MOST_LISTED = 8;

/**
 * @param {object} input
 * @param {'script'|'http-app'|'start'|'command'} input.kind
 * @param {string} input.name          the experiment's name
 * @param {string} input.invocation    the command line that wrote the file, quoted in its first line
 * @param {string} [input.schema]      the path of experiments.schema.json for the editor's modeline
 * @param {{ count: number, source: string }} input.cpus  the engine's CPUs
 * @param {{ values: { cpus: number, sources: string[] }[], from: string, axis: string }} [input.budgets]
 *   the CPU budgets, each with the lines naming its sources (none: a flow list); from: where they come from, for the
 *   header; axis: the same for the axis' comment
 * @param {string[]} [input.notes]     header lines: what was left out or not read
 * @param {{ docker: string, lines: string[] }} [input.memory]  the memory limit, with the comment's lines
 * @param {{ axes: { name: string, values: Array<number|string>, comment: string, more: string[], production: string
 *   }[], notes: string[] }} [input.knobs]  api/init-words.js's describeKnobs: the knob axes, and why others are not
 * @param {{ method, path, headers, body, status, lines: string[], others: string[] }} [input.request]  http
 * @param {{ command: string, source: object|null, port: { port: number, env: string|null, file?: string, line?:
 *   number, given?: boolean }, root: string }} [input.start]  start: the service's start command
 * @param {string} [input.file]        script / http-app: the module, relative to the experiments file's folder
 * @param {string} [input.exportName]
 * @param {boolean} [input.mountHere]  the module is inside the experiments file's folder: mount that folder
 * @param {number} [input.rate]       http: the open-loop rate to measure at (req/s), or the capacity search's start
 * @param {number} [input.sloP99]     http: the SLO's p99 (ms): the capacity search (`slo:`)
 * @param {string[]} [input.argv]      command
 * @param {string} [input.image]       command
 * @returns {string}
 */
export function formatInitFile(input) {
  const matrix = chooseMatrix(input);
  const cells = countCells(matrix);
  // The default's start rounds (docs/statistics.md), written out so the person sees what they can change.
  const repetitions = defaultRepetitions({
    matrix: Object.fromEntries(matrix.axes.map(([axis, values]) => [axis, values])),
    ...(input.sloP99 ? { slo: {} } : {}),
  });
  const cap = capOf(input, CAP);
  const lines = [
    ...(input.schema ? [[`# yaml-language-server: $schema=${input.schema}`]] : []),
    [`# Written by \`${input.invocation}\` for ${describeCode(input)}.`],
    ['# Check it with `node-threads-lab plan`, run it with `node-threads-lab run`; every key: docs/experiments.md.'],
    [describeCpus(input)],
    ...(input.notes ?? []).map((note) => [`# ${note}`]),
    ['experiments:'],
    [`  ${input.name}:`, `results/${input.name}-<UTC time>/ and the \`experiment\` column`],
    [`    description: ${formatScalar(matrix.question)}`],
    [
      `    repetitions: ${repetitions}`,
      input.sloP99
        ? `the first round, at the start rate; then each cell at the rates its runs call for, up to ${cap} a cell`
        : `start rounds: every cell this often, each in a fresh container; then the race (the default \`search\`) runs only what can still change the answer, up to ${cap} a cell`,
    ],
    ...formatTrafficKeys(
      input,
      (input.knobs?.axes ?? []).filter((axis) => axis.today).map((axis) => ({ name: axis.name, ...axis.today })),
    ),
    ['    timeout: 300', 'seconds per run; a run past it is killed and recorded as `timeout`'],
    ...(input.memory ? commentLines(`    memory: ${input.memory.docker}`, input.memory.lines) : []),
    ...formatProduction(input),
    [
      '    matrix:',
      `every combination is one cell: ${cells} cells × ${repetitions} = ${cells * repetitions} runs to start, at most ${cells * cap} in all (and re-runs of disturbed ones)`,
    ],
    ...matrix.axes.flatMap(formatAxis),
    ['    params:'],
    ...formatParams(input),
  ];
  return `${lines.map(([code, comment]) => (comment ? `${code.padEnd(COMMENT_COLUMN - 3)} # ${comment}` : code)).join('\n')}\n`;
}

function describeCode({ kind, file, exportName, argv, image, start }) {
  if (kind === 'command') return `\`${argv.join(' ')}\`${image ? ` in ${image}` : ''}`;
  if (kind === 'start') return `the service \`${start.command}\` starts`;
  return `${kind === 'script' ? 'the function' : 'the HTTP app'} \`${exportName}\` of ${file}`;
}

function describeCpus({ cpus, budgets }) {
  if (!budgets) return `# CPUs: ${cpus.count}, from ${cpus.source}.`;
  const values = budgets.values.map((budget) => budget.cpus);
  return `# CPUs: ${formatAnd(values)}, ${budgets.from}. This engine has ${cpus.count}, from ${cpus.source}.`;
}

// What to vary for each kind of code: the budgets (else a ladder up to the engine's CPUs), and the knobs.
function chooseMatrix({ kind, cpus, budgets, knobs = { axes: [], notes: [] } }) {
  const count = cpus.count;
  const all = count === 1 ? 'the one CPU of this engine' : `up to all ${count} CPUs of this engine`;
  const knobAxes = knobs.axes.map((axis) => [axis.name, axis.values, axis.comment, listCalls(axis.more)]);
  const notes = knobs.notes.map((note) => ['#', null, note]);
  const budgetAxis = (comment, fallback) =>
    budgets
      ? ['cpus', budgets.values, `${comment}, ${budgets.axis}`]
      : ['cpus', fallback.values, `${comment}, ${fallback.comment}`];
  const names = knobs.axes.map((axis) => axis.name).join(', ');
  if (kind === 'script') {
    return {
      question: `How does my function scale with CPUs${names ? ` and ${names}` : ''}?`,
      axes: [
        ['workload', ['script'], 'your function: one call is one task'],
        budgetAxis('CPU quota (docker run --cpus)', { values: ladder(1, count), comment: all }),
        ...knobAxes,
        ...notes,
      ],
    };
  }
  if (kind === 'http-app' || kind === 'start') {
    return {
      question: `What ${names ? `${names} ` : 'setting '}serves the most requests per second on the CPUs my service gets?`,
      axes: [
        [
          'workload',
          ['http'],
          kind === 'start'
            ? 'your service as production starts it, autocannon as the load in a second container'
            : 'your app as the server, autocannon as the load in a second container',
        ],
        budgetAxis('CPU quota of the server (the load generator runs beside it)', {
          values: [count],
          comment: count === 1 ? 'the one CPU of this engine' : `all ${count} CPUs of this engine`,
        }),
        ...knobAxes,
        ...notes,
      ],
    };
  }
  return {
    question: 'How long does my command take with less and more CPU?',
    axes: [
      ['workload', ['command'], "any program, measured from outside by its container's cgroup"],
      budgetAxis('CPU quota (docker run --cpus)', {
        values: [0.5, ...ladder(1, count)],
        comment: `half a CPU, ${all}`,
      }),
    ],
  };
}

// Where production sets each knob of the matrix: what `plan` shows and what tells the advice an axis added by hand.
function formatProduction({ kind, budgets, knobs }) {
  if (kind === 'command' || kind === 'script') return [];
  const entries = [
    ...(budgets?.values?.some((budget) => budget.sources.length > 0)
      ? [['cpus', budgets.values.map((budget) => `${budget.cpus}: ${budget.sources.join(' ')}`).join('; ')]]
      : []),
    ...(knobs?.axes ?? []).map((axis) => [axis.name, axis.production]),
  ];
  if (entries.length === 0) return [];
  return [
    ['    production:', 'where production sets each knob below (`plan` shows it); an axis you add by hand is not'],
    ...entries.map(([axis, where]) => [`      ${axis}: ${formatScalar(where)}`]),
  ];
}

// `cpus` from deployment files: one value a line, each with its source. Any other axis: a flow list and a comment,
// and the lines that say more under it.
function formatAxis([axis, values, comment, more = []]) {
  if (axis === '#') return [[`      # ${comment}`]];
  if (values.some((budget) => budget.sources?.length > 0)) {
    return [
      [`      ${axis}:`, comment],
      ...values.flatMap((budget) => commentLines(`        - ${budget.cpus}`, budget.sources)),
    ];
  }
  const numbers = values.map((value) => (typeof value === 'object' ? value.cpus : value));
  return commentLines(`      ${axis}: ${formatList(numbers)}`, [comment, ...more]);
}

/** A line with its comment, and the comment's further lines under it, lined up. */
function commentLines(code, [first, ...rest]) {
  return [[code, first], ...rest.map((line) => ['', `  ${line}`])];
}

function listCalls(calls = []) {
  const shown = calls.slice(0, MOST_LISTED);
  return calls.length > MOST_LISTED ? [...shown, `and ${calls.length - MOST_LISTED} more`] : shown;
}

function formatParams({ kind, file, exportName, mountHere, argv, image, request, start, rate, sloP99 }) {
  const mount = mountHere
    ? [['root: .', 'this folder, mounted read-only: its node_modules is what the imports find']]
    : [];
  if (kind === 'script') {
    return indent(6, 'script:', [
      [`file: ${formatScalar(file)}`, "relative to this file's folder"],
      [`export: ${formatScalar(exportName)}`, 'the function (sync or async); `default` for export default'],
      ['tasks: 8', 'calls per run, all started at once'],
      ['args: {}', 'the first argument of every call (JSON values); the second is { task }'],
      ...mount,
    ]);
  }
  if (kind === 'http-app') {
    return [
      ...indent(6, 'http:', []),
      ...indent(8, 'app:', [
        [`file: ${formatScalar(file)}`, "relative to this file's folder"],
        [
          `export: ${formatScalar(exportName)}`,
          'a (req, res) handler, or a function returning an unstarted http.Server',
        ],
        ...formatRequest(request),
        ...mount,
      ]),
      ...formatLoad({ rate, sloP99 }),
    ];
  }
  if (kind === 'start') {
    const port = start.port;
    const portWhy = port.given
      ? 'given with --port'
      : `where it listens: ${port.file ? `${port.file}:${port.line}` : 'its code'}${port.env ? ` (${port.env} unset)` : ''}`;
    return [
      ...indent(6, 'http:', [
        [
          `start: ${formatScalar(start.command)}`,
          `your service as production starts it${start.source?.file ? ` (${start.source.file}:${start.source.line}, its \`start\` script)` : ''}`,
        ],
        [`root: ${formatScalar(start.root)}`, 'its folder, mounted read-only: its node_modules is what it imports'],
        [`port: ${port.port}`, portWhy],
      ]),
      ...indent(8, 'request:', formatRequest(request)),
      ...formatLoad({ rate, sloP99 }),
    ];
  }
  return indent(6, 'command:', [
    ...(image
      ? [[`image: ${formatScalar(image)}`, `must be on the engine: nothing is pulled (docker pull ${image})`]]
      : []),
    [`argv: ${formatList(argv)}`, "run as given: no shell; a bare name is looked up in the image's PATH"],
    ['root: .', 'this folder, mounted read-only at /lab/user: the working directory'],
    ['tasks: 1', 'times each run starts the command, one after another'],
  ]);
}

// The request the loader sends, why this one, and the app's other routes (listed, not measured).
function formatRequest(request) {
  if (!request) return [];
  const others = request.others.length > 0 ? [`its other routes, not measured: ${request.others.join(', ')}`] : [];
  return [
    [`method: ${request.method}`, `the request the load generator sends: ${request.lines[0]}`],
    ...[...request.lines.slice(1), ...others].map((line) => ['', `  ${line}`]),
    [`path: ${formatScalar(request.path)}`, 'and its path'],
    ...(Object.keys(request.headers).length > 0 ? [[`headers: ${formatMap(request.headers)}`, 'its headers']] : []),
    ...(request.body ? [[`body: ${JSON.stringify(request.body)}`, 'its body, sent as is']] : []),
    [
      `status: ${request.status}`,
      'its expected status: the preflight sends it once before the first run, and any other stops the matrix (exit 2)',
    ],
  ];
}

function formatLoad(traffic) {
  return [
    ['        duration: 10', 'measured seconds per run'],
    ['        warmup: 3', 'seconds of load before, not counted (JIT, connections)'],
    ...formatTrafficLoad(traffic),
  ];
}

function indent(spaces, head, entries) {
  const pad = ' '.repeat(spaces);
  return [[`${pad}${head}`], ...entries.map(([code, comment]) => [`${pad}  ${code}`, comment])];
}

/** 1, 2, 4, … up to `to`, and `to` itself. */
function ladder(from, to) {
  const values = [];
  for (let value = from; value < to; value *= 2) values.push(value);
  return [...values, to];
}

function countCells({ axes }) {
  const combinations = axes
    .filter(([axis]) => axis !== '#')
    .reduce(
      (partial, [axis, values]) => partial.flatMap((cell) => values.map((value) => ({ ...cell, [axis]: value }))),
      [{}],
    );
  return combinations.length;
}

function formatList(values) {
  return `[${values.map(formatScalar).join(', ')}]`;
}

function formatMap(map) {
  return `{${Object.entries(map)
    .map(([key, value]) => `${key}: ${formatScalar(value)}`)
    .join(', ')}}`;
}

function formatAnd(values) {
  return values.length < 2 ? values.join('') : `${values.slice(0, -1).join(', ')} and ${values.at(-1)}`;
}

// Plain where YAML reads it back as the same string or number, double-quoted (JSON is valid YAML) otherwise.
function formatScalar(value) {
  if (typeof value === 'number') return String(value);
  const plain = /^[A-Za-z_./][\w./@+-]*$/.test(value) && !/^(true|false|null|yes|no|on|off|~)$/i.test(value);
  return plain ? value : JSON.stringify(value);
}
