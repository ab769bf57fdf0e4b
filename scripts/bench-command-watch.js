#!/usr/bin/env node
// Benchmark: how exact is a `command` measured from outside? A Perl loop burns a fixed amount of its
// own CPU time and prints what it counted itself (times(), 10 ms ticks); the lab reads the container's
// cgroup through the watcher sidecar. Per task, the cgroup must hold at least what Perl counted, plus
// the process's start and exit that Perl cannot see. Printed: both figures, their difference and ratio,
// and how many readings were final (taken after the exit) rather than up to 5 ms before it. Usage:
//   npm run bench:command [-- --runs 3 --tasks 5 --cpu-ms 300]
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { execa } from 'execa';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    tasks: { type: 'string', default: '5' },
    'cpu-ms': { type: 'string', default: '300' },
  },
});
const [runs, tasks, cpuMs] = [values.runs, values.tasks, values['cpu-ms']].map(Number);
const CLI = fileURLToPath(new URL('../runner/cli.js', import.meta.url));

// Busy until Perl's own user time has grown by cpuMs, then print its own count as the last stdout line.
// (times() is a system call: it is asked only every 100 000 additions, so the CPU time is the loop's.)
const PERL = `my $t0 = (times)[0]; my $x = 0; while ((times)[0] - $t0 < ${cpuMs / 1000}) { $x += $_ for 1 .. 100000 } my ($u, $s) = times; printf "{\\"self_cpu_ms\\": %.0f}\\n", ($u + $s) * 1000;`;
const dir = mkdtempSync(join(tmpdir(), 'lab-bench-command-'));
writeFileSync(
  join(dir, 'experiments.yml'),
  JSON.stringify({
    experiments: {
      'command-watch': {
        repetitions: runs,
        timeout: 300,
        matrix: { workload: ['command'], cpus: [0.5, 2] },
        params: { command: { argv: ['perl', '-e', PERL], tasks } },
      },
    },
  }),
);
const out = join(dir, 'out');
const cli = await execa(process.execPath, [CLI, 'run', '--config', join(dir, 'experiments.yml'), '--out', out], {
  reject: false,
  all: true,
});
if (cli.exitCode !== 0) {
  console.error(cli.all);
  process.exit(1);
}
const rows = parse(readFileSync(join(out, 'runs.csv'), 'utf8'), { columns: true });
console.log(
  `command measured from outside: Perl burns ${cpuMs} ms of CPU per task, ${tasks} tasks per run, ${runs} runs per cell\n`,
);
console.log('cpus  cgroup ms/task  Perl ms/task  difference  ratio  final readings');
for (const row of rows) {
  const cgroup = Number(row.cpu_total_ms) / tasks;
  const self = Number(row.user_self_cpu_ms);
  console.log(
    `${row.cpus.padEnd(5)} ${cgroup.toFixed(1).padStart(14)} ${self.toFixed(0).padStart(13)} ${(cgroup - self).toFixed(1).padStart(11)} ${(cgroup / self).toFixed(3).padStart(6)}  ${row.cgroup_reading_final}`,
  );
}
