// Entry of the preflight container (node /app/preflight.js), one per user file before the matrix
// starts: import the module from the read-only mount, check that the export exists and is a
// function, and for a script make one call whose returned keys become the user_<key> columns
// (runs.csv's header is written before the first run). For an http app, build its server once as every
// run will (a factory called, a Fastify app made ready, ...; never listening), so a shape the lab cannot
// serve stops the matrix here. Prints one JSON line; exit 2 when the module cannot serve (missing export,
// not a function, a shape no server can be made of, addon for another platform, import error).
//
// LAB_PREFLIGHT: {"kind":"function"|"app","file":"/lab/user/...","export":"default","args":{}}

import { buildUserServer } from './http/app-shape.js';
import { loadUserExport } from './user/load-export.js';
import { formatUserError } from './user/user-error.js';
import { pickUserNumbers } from './lib/user-numbers.js';

process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);

const request = JSON.parse(process.env.LAB_PREFLIGHT ?? '{}');
const printed = watchStdout();
const exported = await loadUserExport(request, { anyValue: request.kind === 'app' });
const report = {
  ok: true,
  kind: request.kind,
  arity: typeof exported === 'function' ? exported.length : null,
  columns: [],
};
if (request.kind === 'app') {
  const { server, shape } = await buildUserServer(exported, request);
  report.shape = shape;
  server.close();
} else if (request.kind === 'function') {
  // The call is a primer: not measured; if it throws, the runs will fail with the same stack.
  try {
    report.columns = Object.keys(pickUserNumbers(await exported(request.args ?? {}, { task: 0 })) ?? {});
  } catch (error) {
    report.callError = formatUserError(error);
  }
}
report.stdout = printed.stop();
// On a line of its own: a module that printed while loading may have left its last line unfinished.
process.stdout.write(`\n${JSON.stringify(report)}\n`, () => process.exit(0));

// What the module (and a script's first call) print on stdout: a run prints its result line right after, so a last
// line left unfinished would swallow it (the runner refuses that before the matrix, runner/docker/runs/).
function watchStdout() {
  const write = process.stdout.write.bind(process.stdout);
  let bytes = 0;
  let last = '';
  process.stdout.write = (chunk, ...rest) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    bytes += Buffer.byteLength(text);
    if (text.length > 0) last = text.at(-1);
    return write(chunk, ...rest);
  };
  return {
    stop() {
      process.stdout.write = write;
      return { bytes, unfinished: bytes > 0 && last !== '\n' };
    },
  };
}

function fail(error) {
  process.stderr.write(`preflight failed: ${String(error?.message ?? error).replace(/\s*\n\s*/g, ' ')}\n`);
  process.exit(2);
}
