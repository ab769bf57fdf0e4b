// The experiments.yml `init` writes for a person's own code: one experiment whose knobs fit the kind of code
// (the libuv pool and worker threads for a function, cluster processes and worker threads for an HTTP app, the CPU
// quota for any command), CPUs up to what the engine has, and a comment on every line saying what it does. Pure:
// the caller reads the engine and the files (api/init.js).

import { EXPERIMENT_DEFAULTS } from '../config/defaults.js';

const COMMENT_COLUMN = 44;
// The study's runs a cell (docs/statistics.md), written out so the person sees what they can change.
const REPETITIONS = EXPERIMENT_DEFAULTS.repetitions;

/**
 * @param {object} input
 * @param {'script'|'http-app'|'command'} input.kind
 * @param {string} input.name          the experiment's name
 * @param {string} input.invocation    the command line that wrote the file, quoted in its first line
 * @param {{ count: number, source: string }} input.cpus
 * @param {string} [input.file]        script / http-app: the module, relative to the experiments file's folder
 * @param {string} [input.exportName]
 * @param {boolean} [input.mountHere]  the module is inside the experiments file's folder: mount that folder
 * @param {string[]} [input.argv]      command
 * @param {string} [input.image]       command
 * @returns {string}
 */
export function formatInitFile(input) {
  const matrix = chooseMatrix(input.kind, input.cpus.count);
  const cells = countCells(matrix);
  const lines = [
    [`# Written by \`${input.invocation}\` for ${describeCode(input)}.`],
    ['# Check it with `node-threads-lab plan`, run it with `node-threads-lab run`; every key: docs/experiments.md.'],
    [`# CPUs: ${input.cpus.count}, from ${input.cpus.source}.`],
    ['experiments:'],
    [`  ${input.name}:`, `results/${input.name}-<UTC time>/ and the \`experiment\` column`],
    [`    description: ${formatScalar(matrix.question)}`],
    [`    repetitions: ${REPETITIONS}`, 'runs per cell, each in a fresh container, in a shuffled order'],
    ['    timeout: 300', 'seconds per run; a run past it is killed and recorded as `timeout`'],
    ['    matrix:', `every combination is one cell: ${cells} cells × ${REPETITIONS} = ${cells * REPETITIONS} runs`],
    ...matrix.axes.map(([axis, values, comment]) => [`      ${axis}: ${formatList(values)}`, comment]),
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

// What to vary for each kind of code, on an engine of `count` CPUs.
function chooseMatrix(kind, count) {
  const all = count === 1 ? 'the one CPU of this engine' : `up to all ${count} CPUs of this engine`;
  if (kind === 'script') {
    const threads = Math.max(2, count);
    return {
      question: 'How does my function scale with CPUs, the libuv pool and worker threads?',
      axes: [
        ['workload', ['script'], 'your function: one call is one task'],
        ['cpus', ladder(1, count), `CPU quota (docker run --cpus), ${all}`],
        ['uv_threadpool_size', [1, 4], 'libuv pool: async calls on it (crypto, zlib, fs) run this many at once'],
        ['workers', [0, threads], 'worker threads sharing the calls: the way sync code runs in parallel'],
      ],
    };
  }
  if (kind === 'http-app') {
    const many = Math.max(2, count);
    return {
      question: 'Does my app serve more requests per second in cluster processes or in worker threads?',
      axes: [
        ['workload', ['http'], 'your app as the server, autocannon as the load in a second container'],
        [
          'cpus',
          [count],
          `CPU quota of the server: ${count === 1 ? 'the one CPU' : `all ${count} CPUs`} of this engine (the load generator runs beside it)`,
        ],
        ['cluster', [0, many], 'node:cluster processes serving (0: one process)'],
        ['workers', [0, many], 'worker threads serving; the main thread deals them the connections'],
      ],
      exclude: { cluster: many, workers: many },
    };
  }
  return {
    question: 'How long does my command take with less and more CPU?',
    axes: [
      ['workload', ['command'], "any program, measured from outside by its container's cgroup"],
      ['cpus', [0.5, ...ladder(1, count)], `CPU quota (docker run --cpus): half a CPU, ${all}`],
    ],
  };
}

function formatParams({ kind, file, exportName, mountHere, argv, image }) {
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
      ['        connections: 10', 'connections autocannon keeps busy'],
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
  const combinations = axes.reduce(
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

// Plain where YAML reads it back as the same string or number, double-quoted (JSON is valid YAML) otherwise.
function formatScalar(value) {
  if (typeof value === 'number') return String(value);
  const plain = /^[A-Za-z_./][\w./@+-]*$/.test(value) && !/^(true|false|null|yes|no|on|off|~)$/i.test(value);
  return plain ? value : JSON.stringify(value);
}
