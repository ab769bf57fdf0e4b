// An http cell whose load generator shared the server's CPUs: report.md and report.html say so, with the CPU time the
// loader took (loader_cpu_ms), measured; cells whose loader had CPUs of its own are not named.
import { buildReport } from '../../../runner/report/build-report.js';
import { renderMarkdown } from '../../../runner/report/markdown.js';
import { renderHtml } from '../../../runner/report/html.js';

const run = (cell, cpus, repetition, shared, loaderCpuMs) => ({
  experiment: 'web',
  cell,
  repetition,
  workload: 'http',
  cpus,
  status: 'ok',
  warmup: false,
  disturbed: false,
  wall_ms: 10000,
  requests_per_sec: 1000 + repetition,
  latency_p99_ms: 20 + repetition,
  loader_shared: shared,
  loader_cpu_ms: loaderCpuMs,
});

test('the shared cells are named with the median CPU the loader took; the others are not', () => {
  const results = {
    info: { experiment: 'web' },
    axes: ['workload', 'cpus'],
    runs: [
      run('aaaaaaaaaa', 1, 1, false, 900),
      run('aaaaaaaaaa', 1, 2, false, 950),
      run('bbbbbbbbbb', 2, 1, true, 800),
      run('bbbbbbbbbb', 2, 2, true, 1000),
      run('bbbbbbbbbb', 2, 3, true, 850),
    ],
    tasks: [],
    keepDisturbed: false,
  };
  const report = buildReport(results);
  const note =
    "the load generator shared the server's CPUs (loader_shared) in 1 cell, so their numbers are the server's with the loader competing for CPU; median loader_cpu_ms: http cpus=2: 850 ms of CPU a run (0.085 CPU over the 10 s measured)";
  expect(report.notes).toContain(note);
  expect(renderMarkdown(report)).toContain(`- Note: ${note}`);
  expect(renderHtml(report)).toContain('<li>the load generator shared the server&#39;s CPUs (loader_shared) in 1 cell');
});
