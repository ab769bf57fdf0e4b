import { execa } from 'execa';
import { fileURLToPath } from 'node:url';
import { track } from './children.js';

const CLI = fileURLToPath(new URL('../../runner/cli.js', import.meta.url));

/** Runs the real CLI as a person would (`node-threads-lab ARGS`: a command first), never throwing on exit codes. */
export function runCli(args, options = {}) {
  return track(execa('node', [CLI, ...args], { reject: false, all: true, ...options }));
}
