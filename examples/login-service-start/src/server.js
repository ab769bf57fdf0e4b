// Production's entry point (package.json `start`): WEB_CONCURRENCY node:cluster workers (the platform's setting, one
// by default), each serving the app.
import cluster from 'node:cluster';
import buildApp from './app.js';

const workers = Number(process.env.WEB_CONCURRENCY ?? 1);
const port = Number(process.env.PORT ?? 3000);

if (cluster.isPrimary && workers > 1) {
  for (let i = 0; i < workers; i++) cluster.fork();
} else {
  await buildApp().listen({ port, host: '0.0.0.0' });
}
