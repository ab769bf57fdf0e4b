// Where results go and how they get there. Every row is appended and fsync'ed the moment its run
// ends, so a crash or a Ctrl-C loses at most the run in progress and never leaves half a row. A write that
// fails (a full disk) is undone to the last whole row and becomes a LabError naming the file (write-failure.js).
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  fstatSync,
  statSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { LabError } from '../errors.js';
import { droppedColumns, formatCsv, readHeader, relayCsv } from './csv.js';
import { toWriteFailure } from './write-failure.js';

export class CsvAppender {
  constructor(path, columns) {
    this.path = path;
    this.columns = columns;
    // An empty file is a header that could not be written (a full disk): it gets its header now.
    const isNew = !existsSync(path) || statSync(path).size === 0;
    try {
      if (!isNew) upgradeHeader(path, columns);
      this.fd = openSync(path, 'a');
      this.size = fstatSync(this.fd).size;
    } catch (cause) {
      if (cause instanceof LabError) throw cause;
      throw toWriteFailure(path, cause);
    }
    if (isNew) this.#write(formatCsv([], columns, { header: true }));
  }

  append(rows) {
    if (rows.length > 0) this.#write(formatCsv(rows, this.columns));
  }

  /** Cut the file back to `size` bytes (a length it had): undoes rows whose run could not be recorded whole. */
  truncate(size) {
    ftruncateSync(this.fd, size);
    fsyncSync(this.fd);
    this.size = size;
  }

  close() {
    closeSync(this.fd);
  }

  // All of the text or none of it: a write the disk cuts short is cut off again, so the file ends with a whole row.
  #write(text) {
    const before = this.size;
    const bytes = Buffer.from(text);
    try {
      // A write the disk cuts short returns fewer bytes than asked; the next one says why.
      for (let done = 0; done < bytes.length;) done += writeSync(this.fd, bytes, done);
      fsyncSync(this.fd);
      this.size = before + bytes.length;
    } catch (cause) {
      try {
        ftruncateSync(this.fd, before);
      } catch {
        // --resume cuts a half-written last line off too (resume.js).
      }
      throw toWriteFailure(this.path, cause);
    }
  }
}

// A folder written by an earlier version lacks the columns added since (`engine`, `pss_mb`, …): its rows are
// laid out again under today's header, the new cells empty, so a resume appends rows that line up. Written
// beside and renamed over, so the old file stays whole until the new one is. A column that is no longer
// written is refused, since dropping it would lose measurements (resume.js says so before anything starts).
function upgradeHeader(path, columns) {
  const text = readFileSync(path, 'utf8');
  const header = readHeader(text);
  if (!header || header.join() === columns.join()) return;
  const dropped = droppedColumns(header, columns);
  if (dropped.length > 0) {
    throw new LabError(
      'ERR_RESUME_MISMATCH',
      `${path} has columns this version no longer writes: ${dropped.join(', ')}`,
      {
        hint: 'resume it with the version that wrote it, or start a new results folder',
      },
    );
  }
  try {
    writeFileSync(`${path}.tmp`, relayCsv(text, columns));
    renameSync(`${path}.tmp`, path);
  } catch (cause) {
    rmSync(`${path}.tmp`, { force: true });
    throw cause;
  }
}

/** Create the folder now and prove it is writable, before any container starts. */
export function prepareOutputDir(dir) {
  try {
    makeDirs(dir);
    accessSync(dir, constants.W_OK);
  } catch (cause) {
    throw new LabError('ERR_OUTPUT_UNWRITABLE', `cannot write results to ${dir}: ${cause.code ?? cause.message}`, {
      hint: 'pass a writable folder with --out DIR',
      cause,
    });
  }
  return dir;
}

// Level by level rather than mkdirSync({recursive}): Node 20's recursive mkdir spins forever on a
// path it cannot create under /proc, and a hung runner is worse than an error.
function makeDirs(dir) {
  if (existsSync(dir)) return;
  const parent = dirname(dir);
  if (parent !== dir) makeDirs(parent);
  mkdirSync(dir);
}

export function writeJson(dir, name, data) {
  const path = join(dir, name);
  try {
    writeFileSync(`${path}.tmp`, `${JSON.stringify(data, null, 2)}\n`);
    // rename is atomic: run.json is either the old or the new version, never half of one.
    renameSync(`${path}.tmp`, path);
  } catch (cause) {
    rmSync(`${path}.tmp`, { force: true });
    throw toWriteFailure(path, cause);
  }
  return path;
}

/** `results/<experiment>-<UTC timestamp>`, e.g. results/pool-vs-cores-20261122T051500Z. */
export function defaultOutputDir(root, experiment, now = new Date()) {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return join(root, `${experiment}-${stamp}`);
}
