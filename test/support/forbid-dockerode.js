// node --import ./test/support/forbid-dockerode.js ...: any import of dockerode (or of runner/docker/)
// throws, so a test can show that a command path loads no Docker code at all.
import { register } from 'node:module';

const hooks = `
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (specifier === 'dockerode' || resolved.url.includes('/runner/docker/')) throw new Error('Docker code loaded: ' + resolved.url);
  return resolved;
}`;

register(`data:text/javascript,${encodeURIComponent(hooks)}`);
