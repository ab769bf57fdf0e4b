// postinstall: the workload image's own dependencies (images/workload/package.json: argon2, autocannon,
// mustache), installed on the host once, at install time. The image copies them (no registry is reachable
// from the engine), and the unit tests that run the image's code on the host import them from there, so
// `npm run test:unit` needs no network. A changed lock file reinstalls them; an unchanged one is a no-op.
import { runCommand } from '../runner/commands/command-line.js';
import { ensureWorkloadDependencies } from '../runner/docker/images/workload-image.js';

runCommand(async () => {
  await ensureWorkloadDependencies({ onProgress: ({ message }) => process.stderr.write(`${message}\n`) });
  return 0;
});
