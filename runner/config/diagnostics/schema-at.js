// The part of the schema a key path points at, and an example to write there: a hint for any key the schema has,
// including keys added after the hints were written, drawn from the same examples editors show.

import { buildSchema } from '../schema.js';
import { formatFlow, isPlainObject } from '../values.js';

let rootSchema;

function readSchema() {
  rootSchema ??= buildSchema();
  return rootSchema;
}

/** A node with its `$ref` followed; the node's own keys (a description, examples) win over the definition's. */
function resolveNode(node) {
  if (!isPlainObject(node) || typeof node.$ref !== 'string') return node;
  const target = readSchema().definitions[node.$ref.replace('#/definitions/', '')];
  const { $ref, ...own } = node;
  return { ...resolveNode(target), ...own };
}

// The child schema for one key or list index, looked for in every branch of an anyOf.
function findChild(node, segment) {
  const branches = node.anyOf ? node.anyOf.map(resolveNode) : [node];
  for (const branch of branches) {
    const child = typeof segment === 'number' ? branch.items : findProperty(branch, String(segment));
    if (isPlainObject(child)) return resolveNode(child);
  }
  return undefined;
}

function findProperty(node, key) {
  if (isPlainObject(node.properties) && Object.hasOwn(node.properties, key)) return node.properties[key];
  const pattern = Object.keys(node.patternProperties ?? {}).find((source) => new RegExp(source).test(key));
  if (pattern) return node.patternProperties[pattern];
  return isPlainObject(node.additionalProperties) ? node.additionalProperties : undefined;
}

/**
 * [{ key, node }] from the root down along `path` (ajv's key path: names and list indices), as far as the schema
 * describes it; the root's key is undefined.
 */
export function findSchemaChain(path) {
  const chain = [{ key: undefined, node: resolveNode(readSchema()) }];
  for (const segment of path) {
    const node = findChild(chain.at(-1).node, segment);
    if (!node) break;
    chain.push({ key: segment, node });
  }
  return chain;
}

const isBlank = (value) =>
  value === '' || (Array.isArray(value) && value.length === 0) || (isPlainObject(value) && !Object.keys(value).length);

/**
 * A value a person could write for `node`: its first example, else its first choice, its constant, its default (when
 * it says something), an object made of its required (else first) properties' examples, or a list of one item's.
 */
export function findExample(node, depth = 0) {
  const schema = resolveNode(node);
  if (!isPlainObject(schema) || depth > 6) return undefined;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined && !isBlank(schema.default)) return schema.default;
  for (const branch of schema.anyOf ?? []) {
    const example = findExample(branch, depth + 1);
    if (example !== undefined) return example;
  }
  if (isPlainObject(schema.properties)) return buildObjectExample(schema, depth);
  if (isPlainObject(schema.items)) {
    const item = findExample(schema.items, depth + 1);
    return item === undefined ? undefined : [item];
  }
  return undefined;
}

function buildObjectExample({ properties, required = [] }, depth) {
  const names = required.length > 0 ? required : Object.keys(properties).slice(0, 1);
  const entries = names.map((name) => [name, findExample(properties[name] ?? {}, depth + 1)]);
  return entries.every(([, value]) => value !== undefined) ? Object.fromEntries(entries) : undefined;
}

/**
 * "e.g. `max_repetitions: 10`": a key the mapping at `path` takes, with a value, for a hint about a key it does not
 * take; undefined when the schema names no key there.
 */
export function suggestKnownKey(path) {
  const chain = findSchemaChain(path);
  if (chain.length !== path.length + 1) return undefined;
  const { node } = chain.at(-1);
  const example = findExample(node);
  const [first] = isPlainObject(example) ? Object.entries(example) : [];
  if (first) return `e.g. \`${first[0]}: ${formatFlow(first[1])}\``;
  const named = Object.entries(node.properties ?? {}).find(([, schema]) => findExample(schema) !== undefined);
  return named && `e.g. \`${named[0]}: ${formatFlow(findExample(named[1]))}\``;
}

/**
 * "write e.g. `from_round: 5`" for the value at `path`: the example of the deepest key along the path that has one
 * (a list item's is shown in its list), or undefined when the path is outside the schema or nothing has an example.
 */
export function suggestFromSchema(path) {
  const chain = findSchemaChain(path);
  for (let index = chain.length - 1; index > 0; index -= 1) {
    const example = findExample(chain[index].node);
    if (example === undefined) continue;
    // A list item is shown inside its list; a nameless step (the root) has no key to write.
    const listed = typeof chain[index].key === 'number';
    const key = listed ? chain[index - 1].key : chain[index].key;
    if (typeof key !== 'string') continue;
    return `write e.g. \`${key}: ${formatFlow(listed ? [example] : example)}\``;
  }
  return undefined;
}
