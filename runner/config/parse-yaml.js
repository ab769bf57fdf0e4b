// YAML text → plain object plus a locator into the text. Syntax errors and repeated keys stop here: YAML would
// silently keep one of two `pool:` experiments, and nothing after this point could tell.

import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import { LabError, LabErrors } from '../errors.js';
import { createLocator } from './diagnostics/locate.js';
import { formatPath } from './diagnostics/paths.js';

const SYNTAX_HINTS = {
  TAB_AS_INDENT: 'indent with spaces; YAML does not allow tabs for indentation',
  BAD_INDENT: 'check the indentation of this line and the closing bracket of the line before',
  MISSING_CHAR: 'a bracket or quote is not closed',
};

/** { raw, locate } for `text`; throws ERR_CONFIG_INVALID naming every syntax error and repeated key. */
export function parseYaml(text, file) {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: false });
  const locate = createLocator(doc, lineCounter);
  const errors = [
    ...doc.errors.map((error) => createSyntaxError(error, file)),
    ...findRepeatedKeys(doc.contents, []).map((repeat) => createRepeatError(repeat, file, lineCounter)),
  ];
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new LabErrors(errors);
  return { raw: convertToJs(doc, file), locate };
}

function convertToJs(doc, file) {
  try {
    return doc.toJS() ?? null;
  } catch (error) {
    // yaml refuses aliases that expand exponentially ("billion laughs"); say so as a config error.
    throw new LabError('ERR_CONFIG_INVALID', error.message, { file, hint: 'use fewer YAML aliases', cause: error });
  }
}

function createSyntaxError(error, file) {
  const [start] = error.linePos ?? [];
  // prettyErrors appends " at line L, column C:" and a source excerpt; format() prints the position already.
  const message = error.message.replace(/ at line \d+, column \d+:[\s\S]*$/, '');
  return new LabError('ERR_CONFIG_INVALID', message, {
    file,
    line: start?.line,
    column: start?.col,
    hint: SYNTAX_HINTS[error.code] ?? 'check the quotes, brackets and indentation on this line and the one before',
    cause: error,
  });
}

function findRepeatedKeys(node, path) {
  if (isSeq(node)) return node.items.flatMap((item, index) => findRepeatedKeys(item, [...path, index]));
  if (!isMap(node)) return [];
  const seen = new Map();
  const repeats = [];
  for (const { key, value } of node.items) {
    const name = String(isScalar(key) ? key.value : key);
    if (seen.has(name)) repeats.push({ path: [...path, name], first: seen.get(name), repeat: key });
    else seen.set(name, key);
    repeats.push(...findRepeatedKeys(value, [...path, name]));
  }
  return repeats;
}

function createRepeatError({ path, first, repeat }, file, lineCounter) {
  const firstLine = lineCounter.linePos(first.range[0]).line;
  const { line, col } = lineCounter.linePos(repeat.range[0]);
  const name = path.at(-1);
  const isExperiment = path.length === 2 && path[0] === 'experiments';
  const message = isExperiment
    ? `duplicate experiment name \`${name}\`; expected each name once, the first is on line ${firstLine}`
    : `duplicate key \`${name}\`; expected each key once in a mapping, the first is on line ${firstLine}`;
  return new LabError('ERR_CONFIG_INVALID', message, {
    file,
    line,
    column: col,
    path: formatPath(path),
    hint: isExperiment
      ? 'rename one of them: the name becomes its results folder'
      : 'remove one of them; YAML would keep only one value',
  });
}
