import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import { parse } from 'yaml';
import { buildSchema, SCHEMA_FILE } from '../../../runner/config/schema.js';

const published = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8'));

test('experiments.schema.json is what the axis and workload tables build (node scripts/write-schema.js)', () => {
  expect(published).toEqual(buildSchema());
});

test('the published schema compiles in strict mode and accepts the default experiments.yml', () => {
  const ajv = new Ajv({ strict: true, allowUnionTypes: true });
  const validate = ajv.compile(published);
  const raw = parse(readFileSync(new URL('../../../experiments.yml', import.meta.url), 'utf8'));
  expect(validate(raw)).toBe(true);
});

test('every property and definition has a title and a description, so editors can document it', () => {
  const missing = [];
  const visit = (schema, where) => {
    if (!schema.$ref && !(schema.title && schema.description)) missing.push(where);
  };
  for (const [name, schema] of Object.entries(published.definitions)) {
    visit(schema, `definitions.${name}`);
    for (const [key, property] of Object.entries(schema.properties ?? {}))
      visit(property, `definitions.${name}.properties.${key}`);
    for (const [key, property] of Object.entries(schema.patternProperties ?? {}))
      visit(property, `definitions.${name}.patternProperties.${key}`);
  }
  visit(published.properties.experiments, 'properties.experiments');
  expect(missing).toEqual([]);
});

test('settings and parameters publish their defaults', () => {
  const experiment = published.definitions.experiment.properties;
  expect([experiment.repetitions.default, experiment.timeout.default, experiment.memory.default]).toEqual([
    2,
    300,
    '1g',
  ]);
  expect(published.definitions['params.pbkdf2'].properties.digest.default).toBe('sha512');
  expect(published.definitions.workload.enum).toEqual(['pbkdf2', 'argon2', 'http', 'idle', 'sum', 'script', 'command']);
});
