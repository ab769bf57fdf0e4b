// `node-threads-lab init`: a first experiments.yml for the person's own code (api/init.js).
import { parseCommandLine } from './command-line.js';
import { init } from '../index.js';
import { resolveTyped } from './caller-paths.js';

export const USAGE = `Usage: node-threads-lab init --script FILE [--export NAME]
       node-threads-lab init --http-app FILE [--export NAME]
       node-threads-lab init --command "PROGRAM ARGS" [--image IMAGE]

Writes experiments.yml for your code, every line commented: CPUs up to what the Docker engine has (asked; this
machine's count when no engine answers), and the knobs that fit the kind of code. Never overwrites a file (exit 2).
Check the result with \`node-threads-lab plan\`.

  --script FILE     a module whose export is a function (sync or async): one call is one task; the matrix varies
                    cpus, the libuv pool and worker threads
  --http-app FILE   a module whose export is a (req, res) handler or a function returning an http.Server; the
                    matrix varies cluster processes and worker threads under autocannon
  --export NAME     the export (default: default)
  --command "..."   any program and its arguments, split as a shell would split them but never run by one; the
                    matrix varies the CPU quota
  --image IMAGE     the command's image, already on the engine (default: the lab's own, with node, perl and sh)
  --config FILE     the file to write (default: experiments.yml); paths in it are relative to its folder
  -h, --help        this text

Exit status: the table in \`node-threads-lab --help\` (and docs/cli.md), one for every command.`;

const OPTIONS = {
  script: { type: 'string' },
  'http-app': { type: 'string' },
  command: { type: 'string' },
  export: { type: 'string' },
  image: { type: 'string' },
  config: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
};

const MEANT = {
  app: 'did you mean --http-app?',
  function: 'did you mean --script?',
  out: 'did you mean --config? (the file to write)',
};

export async function main(argv, { stdout, paths }) {
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
    // Beside the person's code, where they are: init has no npm script of its own.
    config: resolveTyped(paths, values.config ?? 'experiments.yml'),
    invocation: ['node-threads-lab init', ...argv.map(quoteWord)].join(' '),
  });
  stdout.write(
    `wrote ${written.file}: CPUs ${written.cpus.count}, from ${written.cpus.source}\nnext: node-threads-lab plan${values.config ? ` --config ${values.config}` : ''}, then node-threads-lab run${values.config ? ` --config ${values.config}` : ''}\n`,
  );
  return 0;
}

function quoteWord(word) {
  return /^[\w./@:=+-]+$/.test(word) ? word : JSON.stringify(word);
}
