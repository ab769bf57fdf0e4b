// The structural checks: types, unknown keys, enums and ranges, by ajv against the published schema.

import Ajv from 'ajv';
import { buildSchema } from './schema.js';
import { translateAjvErrors } from './diagnostics/translate-ajv-errors.js';

let validateSchema;

/** Issues (see translate-ajv-errors.js) for everything the JSON Schema rejects in `raw`. */
export function checkSchema(raw) {
  validateSchema ??= new Ajv({
    allErrors: true, // every problem in one run, so a person fixes them in one edit
    verbose: true, // errors carry the data and schema the messages are built from
    allowUnionTypes: true,
    multipleOfPrecision: 9, // 0.3 is a multiple of 0.001 despite floating point
  }).compile(buildSchema());
  return validateSchema(raw) ? [] : translateAjvErrors(validateSchema.errors, raw);
}
