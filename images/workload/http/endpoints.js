// Where the server listens and what it answers, shared by the server and the load generator. Both
// containers share one network namespace (the loader joins the server's), so 127.0.0.1 is the same
// loopback for both and nothing is published on the host.

export const HOST = '127.0.0.1';
/** The measured server: GET /work does params.work; GET /fast answers at once. */
export const APP_PORT = 3000;
/** The lab's control server, run by the primary process only, never measured. */
export const CONTROL_PORT = 3001;

export const WORK_PATH = '/work';
export const FAST_PATH = '/fast';
export const FAST_BODY = 'fast';

/** GET: 200 once every server process listens. POST start/stop: bound the measured period. */
export const CONTROL = { ready: '/__lab/ready', start: '/__lab/start', stop: '/__lab/stop' };

export const appUrl = (path, port = APP_PORT) => `http://${HOST}:${port}${path}`;
export const controlUrl = (path) => `http://${HOST}:${CONTROL_PORT}${path}`;
