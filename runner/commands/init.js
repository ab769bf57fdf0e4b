// `node-threads-lab init`: a first experiments.yml for the person's own code (api/init.js).
import { parseCommandLine } from './command-line.js';
import { init } from '../index.js';
import { resolveTyped } from './caller-paths.js';
import { formatWarning } from '../plan/plan-warnings.js';

export const USAGE = `Usage: node-threads-lab init --script FILE [--export NAME] [--cpus LIST] [--from FILE]...
       node-threads-lab init --http-app FILE [--export NAME] [--cpus LIST] [--from FILE]...
       node-threads-lab init --command "PROGRAM ARGS" [--image IMAGE] [--cpus LIST] [--from FILE]...

Writes experiments.yml for your code, every line commented. The CPU budgets are your service's: those its
Kubernetes manifests or Compose files set (found in the module's project, or named with --from), each commented
with its source, and the smallest memory limit among them as \`memory:\`; else those given with --cpus; else CPUs up
to what the Docker engine has (asked; this machine's count when no engine answers). The knobs fit the kind of code,
and the libuv pool is one when the code calls APIs that run on it (the calls are named). Never overwrites a file
(exit 2). Check the result with \`node-threads-lab plan\`.

  --script FILE     a module whose export is a function (sync or async): one call is one task; the matrix varies
                    cpus, worker threads, and the libuv pool when the code uses it
  --http-app FILE   a module whose export is a (req, res) handler or a function returning an http.Server; the
                    matrix varies cluster processes and worker threads under autocannon, and the libuv pool when
                    the code uses it
  --export NAME     the export (default: default)
  --command "..."   any program and its arguments, split as a shell would split them but never run by one; the
                    matrix varies the CPU quota
  --image IMAGE     the command's image, already on the engine (default: the lab's own, with node, perl and sh)
  --cpus LIST       the CPU budgets, comma-separated numbers or Kubernetes CPU quantities (1.5,2 or 500m,1500m);
                    no deployment file is looked for
  --from FILE       a Kubernetes manifest or Compose file to read the budgets and memory limit from, instead of
                    looking in the module's project (repeat for more); with --cpus, only its memory limit is used
  --config FILE     the file to write (default: experiments.yml); paths in it are relative to its folder
  --json            one JSON document on stdout instead of the two lines: { file, kind, cpus, budgets, memory,
                    warnings } (docs/api.md: init)
  -h, --help        this text

Exit status: the table in \`node-threads-lab --help\` (and docs/cli.md), one for every command.`;

const OPTIONS = {
  script: { type: 'string' },
  'http-app': { type: 'string' },
  command: { type: 'string' },
  export: { type: 'string' },
  image: { type: 'string' },
  cpus: { type: 'string', multiple: true },
  from: { type: 'string', multiple: true },
  config: { type: 'string' },
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
  const { values } = parseCommandLine(argv, { options: OPTIONS, usage: USAGE, meant: MEANT });
  if (values.help) {
    stdout.write(`${USAGE}\n`);
    return 0;
  }
  const written = await init({
    script: resolveTyped(paths, values.script),
    httpApp: resolveTyped(paths, values['http-app']),
    command: values.command,
    export: values.export,
    image: values.image,
    budgets: values.cpus,
    from: values.from?.map((file) => resolveTyped(paths, file)),
    // Beside the person's code, where they are: init has no npm script of its own.
    config: resolveTyped(paths, values.config ?? 'experiments.yml'),
    invocation: ['node-threads-lab init', ...argv.map(quoteWord)].join(' '),
  });
  for (const warning of written.warnings) stderr.write(`${formatWarning(warning)}\n`);
  if (values.json) {
    const { text, ...document } = written;
    stdout.write(`${JSON.stringify(document, null, 2)}\n`);
    return 0;
  }
  const cpus = written.budgets
    ? `CPUs ${written.budgets.values.join(', ')}, from ${written.budgets.from}`
    : `CPUs ${written.cpus.count}, from ${written.cpus.source}`;
  const memory = written.memory ? `; memory ${written.memory}` : '';
  const config = values.config ? ` --config ${values.config}` : '';
  stdout.write(
    `wrote ${written.file}: ${cpus}${memory}\nnext: node-threads-lab plan${config}, then node-threads-lab run${config}\n`,
  );
  return 0;
}

function quoteWord(word) {
  return /^[\w./@:=+,-]+$/.test(word) ? word : JSON.stringify(word);
}
