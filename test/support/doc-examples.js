// The `experiments.yml` examples of the README and docs/: every ```yaml block with an `experiments:` key.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseYaml, validateConfig } from '../../runner/config/load-config.js';
import { planExperiments } from '../../runner/plan/plan-runs.js';
import { findPlanWarnings, formatWarning } from '../../runner/plan/plan-warnings.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DOC_FILES = [
  'README.md',
  ...readdirSync(`${ROOT}docs`)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

/** [{ file, block, text }] for every yaml block that defines experiments. */
export function readExamples(files = DOC_FILES) {
  return files.flatMap((file) => {
    const text = readFileSync(`${ROOT}${file}`, 'utf8');
    return [...text.matchAll(/```yaml\n([\s\S]*?)```/g)]
      .map((match, index) => ({ file, block: index, text: match[1] }))
      .filter(({ text: yaml }) => /^experiments:/m.test(yaml));
  });
}

/**
 * What `--plan` would run, per experiment: its cells as `axis=value ...` lines, and any warnings. The host is a
 * 4-CPU machine, a reader's laptop: a 2-CPU cell's http load generator then has a CPU of its own.
 */
export function planExample({ file, text }, host = { cpus: 4, cpuIds: [0, 1, 2, 3] }) {
  const { raw, locate } = parseYaml(text, file);
  const config = validateConfig(raw, { file, locate, host });
  return planExperiments(config, { defaultNodeMajor: 24 }).map((plan) => ({
    experiment: plan.experiment.name,
    cells: plan.cells.map(({ values }) =>
      Object.entries(values)
        .map(([axis, value]) => `${axis}=${value}`)
        .join(' '),
    ),
    warnings: findPlanWarnings(plan, config).map(formatWarning),
  }));
}

/** The ```js blocks of docs/api.md, in order: the API's examples, run by tests as written. */
export function readApiExamples() {
  return [...readFileSync(`${ROOT}docs/api.md`, 'utf8').matchAll(/```js\n([\s\S]*?)```/g)].map(([, code]) => code);
}
