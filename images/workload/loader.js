// Entry of the http load generator's container (node /app/loader.js). Same image and same LAB_SPEC
// as the server; the runner starts it in the server container's network namespace. Like run.js:
// exactly one JSON line on stdout and exit 0, or one `loader failed: ...` line on stderr and exit 1.

import { WorkloadError } from './workload-error.js';
import { runLoad } from './http/load-generator.js';
import { parseSpec } from './spec.js';

process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);

const spec = parseSpec(process.env.LAB_SPEC);
if (spec.workload !== 'http')
  throw new WorkloadError(
    'ERR_SPEC_INVALID',
    `LAB_SPEC.workload: the load generator drives http only, got ${JSON.stringify(spec.workload)}`,
  );
const result = await runLoad(spec);
process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0));

function fail(error) {
  process.stderr.write(`loader failed: ${String(error?.message ?? error).replace(/\s*\n\s*/g, ' ')}\n`);
  process.exit(error instanceof WorkloadError ? error.exitCode : 1);
}
