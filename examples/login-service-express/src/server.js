// Production's entry point (package.json `start`): the app, listening.
import app from './app.js';

const port = Number(process.env.PORT ?? 3000);
app.listen(port, '0.0.0.0');
