// The structural checks: types, unknown keys, enums and ranges, by ajv against the published schema.

import { loadSchemaValidator } from './schema-validator.js';
import { translateAjvErrors } from './diagnostics/translate-ajv-errors.js';

let validateSchema;

/** Issues (see translate-ajv-errors.js) for everything the JSON Schema rejects in `raw`. */
export function checkSchema(raw) {
  validateSchema ??= loadSchemaValidator();
  return validateSchema(raw) ? [] : translateAjvErrors(validateSchema.errors, raw);
}
