// Production's entry point (package.json `start`): the app, listening.
import buildApp from './app.js';

const port = Number(process.env.PORT ?? 3000);
await buildApp().listen({ port, host: '0.0.0.0' });
