// Publishes experiments.schema.json for editors: `node scripts/write-schema.js` after changing an axis or a
// workload. test/unit/config/schema.test.js fails while the published file and the tables disagree.

import { writeFile } from 'node:fs/promises';
import { buildSchema, SCHEMA_FILE } from '../runner/config/schema.js';

await writeFile(SCHEMA_FILE, `${JSON.stringify(buildSchema(), null, 2)}\n`);
console.log(`wrote ${SCHEMA_FILE}`);
