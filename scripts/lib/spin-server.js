// A server with a known service time, for `npm run bench:latency`'s comparison of load generators on this host: each
// GET /work busies its thread for `--ms` of CPU time (the http workload's own `spin`, images/workload/http/work.js),
// one request at a time on one event loop: an M/D/1 queue whose D is that time plus node:http's own per request.
// GET /__stats gives the CPU time and the requests served so far, so the caller measures D as it really was.
// Prints its port on stdout once it listens.
import http from 'node:http';
import { parseArgs } from 'node:util';
import { prepareWork } from '../../images/workload/http/work.js';

const { values } = parseArgs({ options: { ms: { type: 'string', default: '5' } } });
const spin = await prepareWork({ work: 'spin', spin: { ms: Number(values.ms) } });
let served = 0;
const server = http.createServer((request, response) => {
  if (request.url === '/__stats') {
    const cpu = process.cpuUsage();
    response.end(JSON.stringify({ cpu_ms: (cpu.user + cpu.system) / 1000, served }));
    return;
  }
  const body = spin();
  served += 1;
  response.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
