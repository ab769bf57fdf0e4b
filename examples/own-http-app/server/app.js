import http from 'node:http';

// A JSON API handler as an app would have it: POST /api/quote takes a cart, prices it against a
// catalogue and answers 200 with the quote. Plain (req, res): no framework, so nothing to install.

const CATALOGUE = new Map(
  Array.from({ length: 500 }, (_, i) => [
    `sku-${i}`,
    { price: 1 + (i % 97) * 0.25, taxRate: i % 3 === 0 ? 0.07 : 0.19 },
  ]),
);

export default function handler(req, res) {
  if (req.method !== 'POST' || req.url !== '/api/quote') return send(res, 404, { error: 'not found' });
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk) => {
    body += chunk;
  });
  req.on('end', () => {
    let cart;
    try {
      cart = JSON.parse(body);
    } catch {
      return send(res, 400, { error: 'body is not JSON' });
    }
    const lines = (cart.items ?? []).map(({ sku, quantity }) => {
      const item = CATALOGUE.get(sku);
      if (!item) return { sku, error: 'unknown sku' };
      const net = item.price * quantity;
      return { sku, quantity, net: round(net), tax: round(net * item.taxRate) };
    });
    const net = lines.reduce((sum, line) => sum + (line.net ?? 0), 0);
    const tax = lines.reduce((sum, line) => sum + (line.tax ?? 0), 0);
    send(res, 200, { currency: 'EUR', lines, net: round(net), tax: round(tax), total: round(net + tax) });
  });
}

function send(res, status, value) {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function round(value) {
  return Math.round(value * 100) / 100;
}

/** The same app as a server factory: `export: createServer` (the lab calls listen()). */
export function createServer() {
  return http.createServer(handler);
}
