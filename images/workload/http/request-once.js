// One request on a connection of its own, closed after the answer. The loader's checks of the server's
// answers go this way, not through fetch: fetch keeps its connection open for the next request (seconds),
// and the server opens the measured period only once no connection to the app port is open (drain.js).

import http from 'node:http';

/**
 * @param {string} url
 * @param {{ method?: string, headers?: Record<string, string>, body?: string, timeoutMs: number }} options
 * @returns {Promise<{ status: number, body: string }>}
 */
export function requestOnce(url, { method = 'GET', headers = {}, body, timeoutMs }) {
  return new Promise((resolve, reject) => {
    // agent: false: a connection of its own, with `Connection: close`.
    const request = http.request(url, { method, headers, agent: false, timeout: timeoutMs }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
    request.on('error', reject);
    request.end(body);
  });
}
