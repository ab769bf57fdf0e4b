// The experiments.yml `init` writes for a person's own code: one experiment whose knobs fit the kind of code and
// what the code calls (the libuv pool when it calls APIs that run on it, worker threads for a function, cluster
// processes and worker threads for an HTTP app, the CPU quota for any command), the CPU budgets and memory limit of
// the service's deployment files (else CPUs up to what the engine has), and a comment on every line saying what it
// does and where it comes from. Pure: the caller reads the engine, the deployment files and the code (api/init.js).

import { EXPERIMENT_DEFAULTS } from '../config/defaults.js';
import { defaultRepetitions } from '../config/normalize.js';
import { CAPACITY_DEFAULTS } from '../verdicts/capacity.js';

const COMMENT_COLUMN = 44;
const CAP = EXPERIMENT_DEFAULTS.adaptive_max_repetitions;
// A comment that says more than a line holds: shown under its key, so long.
const MOST_LISTED = 8;

/**
 * @param {object} input
 * @param {'script'|'http-app'|'command'} input.kind
 * @param {string} input.name          the experiment's name
 * @param {string} input.invocation    the command line that wrote the file, quoted in its first line
 * @param {string} [input.schema]      the path of experiments.schema.json for the editor's modeline
 * @param {{ count: number, source: string }} input.cpus  the engine's CPUs
 * @param {{ values: { cpus: number, sources: string[] }[], from: string, axis: string }} [input.budgets]
 *   the CPU budgets, each with the lines naming its sources (none: a flow list); from: where they come from, for the
 *   header; axis: the same for the axis' comment
 * @param {string[]} [input.notes]     header lines: what was left out or not read
 * @param {{ docker: string, lines: string[] }} [input.memory]  the memory limit, with the comment's lines
 * @param {{ values: number[], comment: string, calls: string[] }|{ none: string }} [input.pool]  the pool axis and
 *   the calls it was chosen for, or why there is none
 * @param {string} [input.file]        script / http-app: the module, relative to the experiments file's folder
 * @param {string} [input.exportName]
 * @param {boolean} [input.mountHere]  the module is inside the experiments file's folder: mount that folder
 * @param {number} [input.rate]       http-app: the open-loop rate (req/s) to measure at, or the search's start
 * @param {number} [input.sloP99]     http-app: the SLO's p99 in ms: the capacity search (`slo:`)
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
  // A capacity search's cap is its own (runs a cell to bracket its rate).
  const cap = input.sloP99 ? CAPACITY_DEFAULTS.cap : CAP;
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
        : `start rounds: every cell this often, each in a fresh container; then the race (the default \`search\`) runs only what can still change the answer, up to ${CAP} a cell`,
    ],
    ...(input.sloP99
      ? [
          [
            `    slo: {p99_ms: ${input.sloP99}}`,
            'your SLO: per budget and setting, the most req/s whose p99 stays within it (docs/experiments.md)',
          ],
        ]
      : input.rate
        ? [
            [
              '    recommend: {metric: latency_p99_ms}',
              'at your rate, the answer is on p99 latency (every setting serves the rate)',
            ],
          ]
        : []),
    ['    timeout: 300', 'seconds per run; a run past it is killed and recorded as `timeout`'],
    ...(input.memory ? commentLines(`    memory: ${input.memory.docker}`, input.memory.lines) : []),
    [
      '    matrix:',
      `every combination is one cell: ${cells} cells × ${repetitions} = ${cells * repetitions} runs to start, at most ${cells * cap} in all (and re-runs of disturbed ones)`,
    ],
    ...matrix.axes.flatMap(formatAxis),
    ...(matrix.exclude
      ? [
          ['    exclude:', 'combinations left out'],
          [`      - ${formatMap(matrix.exclude)}`, 'one or the other, not both at once'],
        ]
      : []),
    ['    params:'],
    ...formatParams(input),
  ];
  return `${lines.map(([code, comment]) => (comment ? `${code.padEnd(COMMENT_COLUMN - 2)}# ${comment}` : code)).join('\n')}\n`;
}

function describeCode({ kind, file, exportName, argv, image }) {
  if (kind === 'command') return `\`${argv.join(' ')}\`${image ? ` in ${image}` : ''}`;
  return `${kind === 'script' ? 'the function' : 'the HTTP app'} \`${exportName}\` of ${file}`;
}

function describeCpus({ cpus, budgets }) {
  if (!budgets) return `# CPUs: ${cpus.count}, from ${cpus.source}.`;
  const values = budgets.values.map((budget) => budget.cpus);
  return `# CPUs: ${formatAnd(values)}, ${budgets.from}. This engine has ${cpus.count}, from ${cpus.source}.`;
}

// What to vary for each kind of code: the budgets (else a ladder up to the engine's CPUs), and the knobs.
function chooseMatrix({ kind, cpus, budgets, pool }) {
  const count = cpus.count;
  const top = budgets ? Math.max(...budgets.values.map((budget) => budget.cpus)) : count;
  const many = Math.max(2, Math.ceil(top));
  const all = count === 1 ? 'the one CPU of this engine' : `up to all ${count} CPUs of this engine`;
  const poolAxis = pool?.values ? [['uv_threadpool_size', pool.values, pool.comment, listCalls(pool.calls)]] : [];
  const poolNote = pool?.none ? [['#', null, pool.none]] : [];
  const budgetAxis = (comment, fallback) =>
    budgets
      ? ['cpus', budgets.values, `${comment}, ${budgets.axis}`]
      : ['cpus', fallback.values, `${comment}, ${fallback.comment}`];
  if (kind === 'script') {
    return {
      question: `How does my function scale with CPUs${pool?.values ? ', the libuv pool' : ''} and worker threads?`,
      axes: [
        ['workload', ['script'], 'your function: one call is one task'],
        budgetAxis('CPU quota (docker run --cpus)', { values: ladder(1, count), comment: all }),
        ...poolAxis,
        ['workers', [0, many], 'worker threads sharing the calls: the way sync code runs in parallel'],
        ...poolNote,
      ],
    };
  }
  if (kind === 'http-app') {
    return {
      question: `Does my app serve more requests per second in cluster processes or in worker threads${pool?.values ? ', and with what libuv pool' : ''}?`,
      axes: [
        ['workload', ['http'], 'your app as the server, autocannon as the load in a second container'],
        budgetAxis('CPU quota of the server (the load generator runs beside it)', {
          values: [count],
          comment: count === 1 ? 'the one CPU of this engine' : `all ${count} CPUs of this engine`,
        }),
        ['cluster', [0, many], 'node:cluster processes serving (0: one process)'],
        ['workers', [0, many], 'worker threads serving; the main thread deals them the connections'],
        ...poolAxis,
        ...poolNote,
      ],
      exclude: { cluster: many, workers: many },
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

function formatParams({ kind, file, exportName, mountHere, argv, image, rate, sloP99 }) {
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
        ['method: GET', 'the request the load generator sends: a route your app serves'],
        ['path: /', 'and its path'],
        ['status: 200', 'its expected status: any other fails the run before it is measured'],
        ...mount,
      ]),
      ['        duration: 10', 'measured seconds per run'],
      ['        warmup: 3', 'seconds of load before, not counted (JIT, connections)'],
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

// Your traffic (--rate) or your SLO (--slo-p99): an open loop at that rate, or from it; else a closed loop.
function formatLoad({ rate, sloP99 }) {
  if (rate === undefined && sloP99 === undefined)
    return [['        connections: 10', 'connections autocannon keeps busy']];
  return [
    ['        load: open', 'requests at a fixed rate whatever the answers, each timed from when it was due'],
    [
      `        open: {rate: ${rate ?? 100}}`,
      sloP99 ? 'req/s the capacity search starts from (it doubles or halves from here)' : 'req/s: your traffic',
    ],
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

function countCells({ axes, exclude }) {
  const combinations = axes
    .filter(([axis]) => axis !== '#')
    .reduce(
      (partial, [axis, values]) => partial.flatMap((cell) => values.map((value) => ({ ...cell, [axis]: value }))),
      [{}],
    );
  const excluded = (cell) =>
    exclude !== undefined && Object.entries(exclude).every(([axis, value]) => cell[axis] === value);
  return combinations.filter((cell) => !excluded(cell)).length;
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
