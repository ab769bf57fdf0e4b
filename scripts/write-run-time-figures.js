#!/usr/bin/env node
// Writes runner/estimate/run-time-figures.json from the committed results folders (scripts/lib/run-time-figures.js):
// the figures `plan` estimates from when no earlier folder of its own ran the work. Run it after a folder under
// docs/settling/ or docs/findings/ is measured again. Usage: node scripts/write-run-time-figures.js
import { writeFileSync } from 'node:fs';
import { buildRunTimeFigures, FIGURES_FILE } from './lib/run-time-figures.js';

const figures = buildRunTimeFigures();
writeFileSync(FIGURES_FILE, `${JSON.stringify(figures, null, 2)}\n`);
console.log(
  `wrote ${FIGURES_FILE}: ${Object.keys(figures.cells).length} cells, ${Object.keys(figures.groups).length} kinds of work, from ${Object.keys(figures.folders).length} folders`,
);
