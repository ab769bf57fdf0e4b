// Loaded into a service's own process by `--import` (NODE_OPTIONS), when the preflight starts it for `init`: it reads
// the route table of the app the service listens with, once its server listens, and writes it to LAB_ROUTES_FILE
// for the preflight (preflight.js) to report. Fastify's routes come from its diagnostics channel (route-table.js);
// an Express app is the request listener of the server that listens.
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import { readRouteTable, watchFastifyRoutes } from './route-table.js';

const fastify = watchFastifyRoutes();
const listen = net.Server.prototype.listen;
let written = false;

net.Server.prototype.listen = function listenAndRecord(...args) {
  this.once('listening', () => {
    if (written || !process.env.LAB_ROUTES_FILE) return;
    written = true;
    const [listener] = this.listeners('request');
    writeFileSync(process.env.LAB_ROUTES_FILE, JSON.stringify(readRouteTable(listener, fastify)));
  });
  return listen.apply(this, args);
};
