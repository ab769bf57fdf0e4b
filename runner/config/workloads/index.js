// Every workload the runner knows. A new workload is one module beside these and one entry here;
// then `node runner/config/write-schema.js` republishes experiments.schema.json.

import { argon2 } from './argon2.js';
import { command } from './command.js';
import { http } from './http.js';
import { idle } from './idle.js';
import { pbkdf2 } from './pbkdf2.js';
import { script } from './script.js';
import { sum } from './sum.js';

export const WORKLOADS = { pbkdf2, argon2, http, idle, sum, script, command };

export const WORKLOAD_NAMES = Object.keys(WORKLOADS);
