// ajv errors → issues a person can act on: { path, message, hint, at, anchor }.
// `at: 'key'` points at the key rather than its value; `anchor` is the path to point at when it is not `path`.

import { AXIS_NAMES } from '../../domain/axes.js';
import { CPU_QUANTITY_PATTERN } from '../../domain/cpu-quantity.js';
import { explainReservedName } from '../../domain/env-names.js';
import { describeExpected, describeStep } from './expected.js';
import { MINIMAL_EXAMPLE, suggestValue } from './hints.js';
import { classifyPath } from './locations.js';
import { suggestKnownKey } from './schema-at.js';
import { formatPath, parsePointer } from './paths.js';
import { suggestName } from '../../../images/workload/lib/suggest.js';
import { describeValue, formatFlow } from '../values.js';

// Each of these only summarizes errors ajv also reports one by one.
const SUMMARY_KEYWORDS = new Set(['anyOf', 'propertyNames', 'if']);

const TRANSLATORS = {
  additionalProperties: translateUnknownKey,
  required: translateMissingKey,
  minProperties: translateEmptyMapping,
  minItems: translateEmptyList,
  uniqueItems: translateDuplicate,
  multipleOf: translateStep,
  pattern: (error, path) =>
    error.propertyName === undefined ? translateExpected(error, path) : translateName(error, path),
};

/** Issues for ajv's errors (run with allErrors and verbose) on `raw`. */
export function translateAjvErrors(errors, raw) {
  const issues = dropUnchosenBranches(errors)
    .filter((error) => !SUMMARY_KEYWORDS.has(error.keyword))
    .map((error) => {
      const translate = isCpuAmount(error.parentSchema)
        ? translateCpuAmount
        : (TRANSLATORS[error.keyword] ?? translateExpected);
      return translate(error, parsePointer(error.instancePath, raw));
    });
  return dropRepeats(dropMissingTypos(issues));
}

// A CPU amount breaks one of several rules (type, bound, step, pattern) but is one mistake: said once, in full.
const isCpuAmount = (schema) => schema?.pattern === CPU_QUANTITY_PATTERN;

function translateCpuAmount(error, path) {
  const location = classifyPath(path);
  const examples =
    location.kind === 'axis'
      ? 'write e.g. `cpus: [1500m]` or `cpus: [1.5]`'
      : location.kind === 'entry-value'
        ? `one value per axis in an ${location.list} entry, e.g. \`- {cpus: 1500m}\` or \`- {cpus: 1.5}\``
        : 'write e.g. `cpus: 1500m` or `cpus: 1.5`';
  return {
    path,
    message:
      'expected a CPU amount greater than 0: a number of CPUs (1.5, at most 3 decimals) or a Kubernetes CPU quantity ' +
      `(1500m, "0.5"), found ${describeValue(error.data)}`,
    hint: `${examples}; 1500m is 1.5 CPUs`,
  };
}

function dropRepeats(issues) {
  const seen = new Set();
  return issues.filter((issue) => {
    const key = `${formatPath(issue.path)}\u0000${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// `experiment:` is both an unknown key and a missing `experiments:`; the "did you mean" says it all.
function dropMissingTypos(issues) {
  const renamed = new Set(
    issues.filter((issue) => issue.renameTo).map((issue) => formatPath([...issue.path.slice(0, -1), issue.renameTo])),
  );
  return issues.filter((issue) => !(issue.missing && renamed.has(formatPath(issue.path))));
}

// A scalar-or-list axis fails both anyOf branches; only the branch for the shape the author wrote is worth reading.
function dropUnchosenBranches(errors) {
  const unchosen = errors
    .filter((error) => error.keyword === 'anyOf')
    .map((error) => ({
      instancePath: error.instancePath,
      schemaPath: `${error.schemaPath}/${Array.isArray(error.data) ? 0 : 1}/`,
    }));
  return errors.filter(
    (error) =>
      !unchosen.some(
        (branch) =>
          (error.instancePath === branch.instancePath || error.instancePath.startsWith(`${branch.instancePath}/`)) &&
          error.schemaPath.startsWith(branch.schemaPath),
      ),
  );
}

function translateExpected(error, path) {
  const location = classifyPath(path);
  return {
    path,
    message: `expected ${describeExpected(error.parentSchema, location)}, found ${describeValue(error.data)}`,
    hint:
      (error.keyword === 'enum' && suggestChoice(error.data, error.schema)) ||
      (error.keyword === 'const' && suggestChoice(error.data, [error.schema])) ||
      suggestValue(location, path),
  };
}

function translateStep(error, path) {
  return {
    path,
    message: `expected ${describeStep(error.schema)}, found ${describeValue(error.data)}`,
    hint: suggestValue(classifyPath(path), path),
  };
}

function suggestChoice(value, choices) {
  const suggestion = typeof value === 'string' ? suggestName(value, choices) : undefined;
  return suggestion && `did you mean \`${suggestion}\`?`;
}

function translateName(error, path) {
  const name = error.propertyName;
  const fixed = name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '') || 'experiment-1';
  return {
    path: [...path, name],
    at: 'key',
    message:
      `experiment name \`${name}\` cannot be a folder name; ` +
      'expected letters, digits, `.`, `_` or `-`, starting with a letter or digit',
    hint: `rename it, e.g. \`${fixed}:\`; the name becomes results/<name>-<timestamp>/`,
  };
}

function translateUnknownKey(error, path) {
  const key = error.params.additionalProperty;
  const location = classifyPath(path);
  const allowed = Object.keys(error.parentSchema.properties ?? {});
  const known = suggestKnownKey(path);
  const remove = (also = '') => `remove it${also}${known ? `, or write a key this mapping takes, ${known}` : ''}`;
  const explain = {
    root: () =>
      explainUnknown(
        key,
        'top-level key',
        allowed,
        `allowed: ${allowed.map((name) => `\`${name}\``).join(', ')}`,
        'settings go inside each experiment: `experiments: {NAME: {repetitions: 5, matrix: ...}}`',
      ),
    experiment: () =>
      explainUnknown(
        key,
        'key',
        allowed,
        `allowed: ${allowed.join(', ')}`,
        AXIS_NAMES.includes(key) ? `axes go under \`matrix:\`, e.g. \`matrix: {${key}: [...]}\`` : remove(),
      ),
    matrix: () => explainUnknownAxis(key),
    entry: () => explainUnknownAxis(key),
    env: () => explainEnvName(key),
    params: () =>
      explainUnknown(
        key,
        'workload',
        allowed,
        `params are for: ${allowed.join(', ')}`,
        remove(' (only known workloads take parameters)'),
      ),
    'workload-params': () =>
      explainUnknown(key, `${location.workload} parameter`, allowed, `allowed: ${allowed.join(', ')}`, remove()),
  }[location.kind];
  const explanation = explain?.() ?? explainUnknown(key, 'key', allowed, `allowed: ${allowed.join(', ')}`, remove());
  return { path: [...path, key], at: 'key', ...explanation };
}

function explainUnknown(key, what, allowed, allowedText, fallbackHint) {
  const suggestion = suggestName(key, allowed);
  return {
    message: `unknown ${what} \`${key}\`${suggestion ? ` (did you mean \`${suggestion}\`?)` : ''}; ${allowedText}`,
    hint: suggestion ? `rename it to \`${suggestion}\`` : fallbackHint,
    renameTo: suggestion,
  };
}

function explainUnknownAxis(key) {
  const reserved = explainReservedName(key);
  if (reserved) return reserved;
  const suggestion = suggestName(key, AXIS_NAMES);
  const envLike = /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) && key.includes('_');
  return {
    message:
      `unknown axis \`${key}\`${suggestion ? ` (did you mean \`${suggestion}\`?)` : ''}; ` +
      `valid axes: ${AXIS_NAMES.join(', ')}, or an environment variable in UPPER_SNAKE_CASE`,
    hint: suggestion
      ? `rename it to \`${suggestion}\``
      : envLike
        ? `for an environment variable, write it in UPPER_SNAKE_CASE: \`${key.toUpperCase()}\``
        : 'remove it, or name an environment variable in UPPER_SNAKE_CASE, e.g. `NODE_OPTIONS: [...]`',
  };
}

function explainEnvName(key) {
  const reserved = explainReservedName(key);
  if (reserved) return reserved;
  const fixed = key.replace(/[^A-Za-z0-9_]/g, '_').replace(/^([0-9])/, '_$1');
  return {
    message:
      `\`${key}\` is not an environment variable name; ` +
      'expected letters, digits and `_`, not starting with a digit',
    hint: `write e.g. \`${fixed}\``,
  };
}

function translateMissingKey(error, path) {
  const missing = error.params.missingProperty;
  const location = classifyPath(path);
  const message =
    location.kind === 'root'
      ? 'no `experiments:` key; expected a mapping with an `experiments:` key at the top level'
      : `${location.kind === 'experiment' ? `experiment \`${location.name}\`` : `\`${formatPath(path)}\``} has no ` +
        `\`${missing}\`; expected ${describeExpected(error.parentSchema.properties?.[missing] ?? {}, { kind: missing })}`;
  const hint = location.kind === 'root' ? MINIMAL_EXAMPLE : suggestValue({ kind: missing }, [...path, missing]);
  return { path: [...path, missing], anchor: path, at: 'key', missing: true, message, hint };
}

function translateEmptyMapping(error, path) {
  const location = classifyPath(path);
  const explain = {
    experiments: () => ({ message: '`experiments` is empty; expected at least one experiment', hint: MINIMAL_EXAMPLE }),
    matrix: () => ({ message: 'the matrix is empty; expected at least one axis', hint: suggestValue(location, path) }),
    entry: () => ({
      message: `empty ${location.list} entry; expected at least one \`axis: value\``,
      hint: 'remove it, or write e.g. `- {cpus: 1}`',
    }),
  }[location.kind];
  return {
    path,
    ...(explain?.() ?? {
      message: `expected at least ${error.schema} ${error.schema === 1 ? 'key' : 'keys'}, found none`,
      hint: suggestValue(location, path),
    }),
  };
}

function translateEmptyList(error, path) {
  const { axis } = classifyPath(path);
  if (!axis)
    return {
      path,
      message: `\`${formatPath(path)}\` is empty; expected at least ${error.schema} ${error.schema === 1 ? 'value' : 'values'}`,
      hint: `remove the key, or ${suggestValue(classifyPath(path), path)}`,
    };
  return {
    path,
    message: `\`${axis}\` has no values; expected at least one value`,
    hint: suggestValue(classifyPath(path), path),
  };
}

function translateDuplicate(error, path) {
  const first = Math.min(error.params.i, error.params.j);
  const repeat = Math.max(error.params.i, error.params.j);
  return {
    path: [...path, repeat],
    message: `duplicate value ${formatFlow(error.data[repeat])} (same as [${first}]); expected each value once`,
    hint: 'remove the repeat: each value is one cell, and `repetitions` already repeats cells',
  };
}
