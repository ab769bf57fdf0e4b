// Runs once while the workload image is built, inside the image, on the container's platform: a
// native addon compiled on the host (a macOS or arm64 laptop) does not load in a Linux container.
// For every node-gyp-build package, a host build that does not load here is removed so the
// package's own prebuild for this platform is used; then every such package must load.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const modules = path.join(path.dirname(new URL(import.meta.url).pathname), 'node_modules');
const load = require('node-gyp-build');

const packages = readdirSync(modules).flatMap((name) =>
  name.startsWith('@')
    ? readdirSync(path.join(modules, name)).map((inner) => path.join(modules, name, inner))
    : [path.join(modules, name)],
);

const usesGypBuild = (dir) => {
  const manifest = path.join(dir, 'package.json');
  return existsSync(manifest) && Boolean(JSON.parse(readFileSync(manifest, 'utf8')).dependencies?.['node-gyp-build']);
};

for (const dir of packages.filter(usesGypBuild)) {
  try {
    load(dir);
  } catch (error) {
    if (!existsSync(path.join(dir, 'build'))) throw error;
    rmSync(path.join(dir, 'build'), { recursive: true, force: true });
    load(dir);
    console.log(
      `${path.basename(dir)}: the host's build does not load on ${process.platform}-${process.arch}; using its prebuild`,
    );
  }
}
