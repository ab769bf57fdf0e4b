// Runs before the tests (`npm test`): makes sure a Docker engine answers, installing and starting one
// on a bare Debian machine when run as root. Prints the engine version, or the error and how to fix it.
import { connectEngine } from '../runner/docker/engines/connect.js';
import { LabError } from '../runner/errors.js';

try {
  const { host, version } = await connectEngine({ setup: true, onProgress: (line) => console.error(`setup: ${line}`) });
  console.log(`Docker engine ${version.Version} (API ${version.ApiVersion}, ${version.Os}/${version.Arch}) at ${host}`);
} catch (error) {
  if (!(error instanceof LabError)) throw error;
  console.error(error.format());
  process.exitCode = error.exitCode;
}
