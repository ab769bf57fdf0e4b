// `node-threads-lab init`: a first experiments.yml for the person's own code (api/init.js).
import { parseCommandLine } from './command-line.js';
import { init } from '../index.js';
import { resolveTyped } from './caller-paths.js';
import { formatWarning } from '../plan/plan-warnings.js';
import { LabError } from '../errors.js';

export const USAGE = `Usage: node-threads-lab init --http-app FILE [--export NAME] [REQUEST] [BUDGETS]
       node-threads-lab init --start ["COMMAND"] [--port N] [REQUEST] [BUDGETS]
       node-threads-lab init --script FILE [--export NAME] [BUDGETS]
       node-threads-lab init --command "PROGRAM ARGS" [--image IMAGE] [BUDGETS]

Writes experiments.yml for your service, every line commented, from what it reads of it: the CPU budget and memory
limit of the container that serves it (Kubernetes: the one a Service sends to, or the only one, never a sidecar or an
init container; Compose only when there is no Kubernetes manifest, or named with --from), the knobs it has in
production (the libuv pool where its code calls on it, processes where it runs as several, its worker pool's size
where its code reads one), and the request its app serves (read from the built app in a locked-down container when
an engine answers). Checks what it would write as \`plan\` does, and sends the request once: a file that would not
run is exit 2 with the flag that fixes it, and nothing is written. Never overwrites a file (--force: one it wrote).

  --http-app FILE     a module whose export is a (req, res) handler, an app (Express, Fastify, Koa, hapi) or a
                      function that builds one, not listening: the lab serves it in its processes
  --export NAME       the export (default: default)
  --start "COMMAND"   your service as production starts it (default: its package.json's \`start\` script)
  --port N            with --start: the port it listens on (default: read from its code)
  --script FILE       a module whose export is a function (sync or async): one call is one task
  --command "..."     any program and its arguments, split as a shell would but never run by one
  --image IMAGE       the command's image, already on the engine (default: the lab's own, with node, perl and sh)
REQUEST (http):
  --request "M /p"    the request to measure, e.g. "POST /login" (default: the route whose handler reaches the
                      calls that run on libuv's pool, or the app's only route)
  --header "N: V"     a request header (repeat for more)
  --body TEXT         the request's body (JSON gets content-type application/json)
  --body-file FILE    the request's body, from a file
  --rate N            your traffic: N requests a second, sent open-loop whatever the answers, each timed from
                      when it was due (\`load: open\`); the advice is then on p99 latency at that rate
  --slo-p99 MS        your SLO: per budget and setting, the most requests a second whose p99 stays within MS ms
                      (\`slo:\`, the capacity search), starting from --rate (default 100)
BUDGETS:
  --from FILE         a Kubernetes manifest or Compose file to read, instead of looking in the service's project
                      (repeat for more); with --cpus, only its memory limit is used
  --container NAME    the container (or Compose service) that serves your app, when the files cannot tell
  --cpus LIST         the CPU budgets, comma-separated numbers or Kubernetes CPU quantities (1.5,2 or 500m,1500m);
                      no deployment file is looked for
  --config FILE       the file to write (default: experiments.yml); paths in it are relative to its folder
  --force             overwrite a file init wrote before
  --json              one JSON document on stdout instead of the lines: what init wrote and read (docs/api.md: init)
  -h, --help          this text

Exit status: the table in \`node-threads-lab --help\` (and docs/cli.md), one for every command.`;

const OPTIONS = {
  script: { type: 'string' },
  'http-app': { type: 'string' },
  start: { type: 'string' },
  port: { type: 'string' },
  command: { type: 'string' },
  export: { type: 'string' },
  image: { type: 'string' },
  request: { type: 'string' },
  header: { type: 'string', multiple: true },
  body: { type: 'string' },
  'body-file': { type: 'string' },
  container: { type: 'string' },
  cpus: { type: 'string', multiple: true },
  from: { type: 'string', multiple: true },
  config: { type: 'string' },
  rate: { type: 'string' },
  'slo-p99': { type: 'string' },
  force: { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
};

const MEANT = {
  app: 'did you mean --http-app?',
  function: 'did you mean --script?',
  out: 'did you mean --config? (the file to write)',
  manifest: 'did you mean --from? (a Kubernetes manifest or Compose file)',
};

export async function main(argv, { stdout, stderr, paths }) {
  // `--start` alone (last, or before another flag) takes the package.json's start script.
  const words = argv.map((word, index) =>
    word === '--start' && (index === argv.length - 1 || argv[index + 1].startsWith('--')) ? '--start=' : word,
  );
  const { values } = parseCommandLine(words, { options: OPTIONS, usage: USAGE, meant: MEANT });
  if (values.help) {
    stdout.write(`${USAGE}\n`);
    return 0;
  }
  const written = await init({
    script: resolveTyped(paths, values.script),
    httpApp: resolveTyped(paths, values['http-app']),
    start: values.start === '' ? true : values.start,
    port: readPort(values.port),
    request: values.request,
    headers: values.header,
    body: values.body,
    bodyFile: resolveTyped(paths, values['body-file']),
    container: values.container,
    force: values.force,
    onProgress: (line) => stderr.write(`init: ${line}\n`),
    command: values.command,
    export: values.export,
    image: values.image,
    budgets: values.cpus,
    from: values.from?.map((file) => resolveTyped(paths, file)),
    rate: values.rate,
    sloP99: values['slo-p99'],
    // Beside the person's code, where they are: init has no npm script of its own.
    config: resolveTyped(paths, values.config ?? 'experiments.yml'),
    invocation: ['node-threads-lab init', ...argv.map(quoteWord)].join(' '),
  });
  for (const warning of written.warnings) stderr.write(`${formatWarning(warning)}\n`);
  for (const notice of written.notices) stderr.write(`init: ${notice}\n`);
  if (values.json) {
    const { text, ...document } = written;
    stdout.write(`${JSON.stringify(document, null, 2)}\n`);
    return 0;
  }
  const cpus = written.budgets
    ? `CPUs ${written.budgets.values.join(', ')}, from ${written.budgets.from}`
    : `CPUs ${written.cpus.count}, from ${written.cpus.source}`;
  const memory = written.memory ? `; memory ${written.memory}` : '';
  const request = written.request
    ? `; request ${written.request.method} ${written.request.path}${written.request.answered ? ` (sent once: ${written.request.answered})` : ' (not sent yet: no engine answered; `run` sends it before any measured run)'}`
    : '';
  const config = values.config ? ` --config ${values.config}` : '';
  stdout.write(
    `wrote ${written.file}: ${cpus}${memory}${request}\nnext: node-threads-lab plan${config}, then node-threads-lab run${config}\n`,
  );
  return 0;
}

function readPort(value) {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new LabError('ERR_USAGE', `--port: ${JSON.stringify(value)} is not a port`, { hint: 'e.g. --port 3000' });
  return port;
}

function quoteWord(word) {
  return /^[\w./@:=+,-]+$/.test(word) ? word : JSON.stringify(word);
}
