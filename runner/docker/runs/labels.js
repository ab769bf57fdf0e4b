// The labels every container and image of the project carries. Containers are found by the project label,
// never by name; the owner label (owner.js) tells a live runner's runs from a killed runner's orphans.
export const PROJECT_LABEL = 'node-threads-lab.project';
export const PROJECT = 'node-threads-lab';

export const LABELS = {
  project: PROJECT_LABEL,
  experiment: 'node-threads-lab.experiment',
  run: 'node-threads-lab.run',
  cell: 'node-threads-lab.cell',
  owner: 'node-threads-lab.owner',
  // server / loader of an http run, command / watcher of a command run, probe of an engine's facts
  role: 'node-threads-lab.role',
};
