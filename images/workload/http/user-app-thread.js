// Entry of each worker thread of a user's app with `workers` (user-app.js): build the app's server
// (never listening) and serve every connection the main thread hands over, as a Duplex whose bytes
// travel by message.

import { Duplex } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { createUserServer } from './user-app.js';

const server = await createUserServer(workerData.app);
const connections = new Map();

parentPort.on('message', ({ type, id, chunk }) => {
  if (type === 'open') {
    const connection = new Duplex({
      allowHalfOpen: true,
      read() {},
      write(data, _encoding, callback) {
        parentPort.postMessage({ type: 'data', id, chunk: data });
        callback();
      },
      final(callback) {
        parentPort.postMessage({ type: 'end', id });
        callback();
      },
      destroy(error, callback) {
        if (connections.delete(id)) parentPort.postMessage({ type: 'close', id });
        callback(error);
      },
    });
    connections.set(id, connection);
    server.emit('connection', connection);
  } else if (type === 'data') {
    connections.get(id)?.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  } else if (type === 'end') {
    connections.get(id)?.push(null);
  } else if (type === 'close') {
    const connection = connections.get(id);
    connections.delete(id);
    connection?.destroy();
  }
});
parentPort.postMessage({ type: 'ready' });
