// The "render a page" work: a mustache template over a table of `rows` rows. Data and template are
// fixed, so every render of the same size gives the same bytes and the loader can check them.

import Mustache from 'mustache';

const TEMPLATE = `<!doctype html>
<html><head><title>{{title}}</title></head>
<body>
<h1>{{title}}</h1>
<table>
<tr><th>#</th><th>Product</th><th>Price</th><th>Stock</th><th>Tags</th></tr>
{{#rows}}
<tr class="{{#inStock}}in{{/inStock}}{{^inStock}}out{{/inStock}}"><td>{{id}}</td><td>{{name}}</td><td>{{price}}</td><td>{{stock}}</td><td>{{#tags}}<span>{{.}}</span>{{/tags}}</td></tr>
{{/rows}}
</table>
<p>{{rows.length}} products &amp; more</p>
</body></html>
`;

const TAGS = ['new', 'sale', 'eco', 'gift', 'bulk'];

export function buildPageData(rowCount) {
  const rows = Array.from({ length: rowCount }, (_, index) => ({
    id: index + 1,
    name: `Product <${index + 1}> "deluxe" & co`,
    price: (((index * 7919) % 10000) / 100).toFixed(2),
    stock: (index * 31) % 17,
    inStock: (index * 31) % 17 > 0,
    tags: TAGS.filter((_, tag) => (index + tag) % 3 === 0),
  }));
  return { title: `Catalogue of ${rowCount}`, rows };
}

// The template of the "offload rendering to a worker" post, as it gave it: one line repeated `rows`
// times, two variables each.
const LOVES_LINE = '<em>{{me}} loves {{you}}</em>';
const LOVES_VIEW = { me: 'Fastify', you: 'Node.js' };

const PAGES = {
  catalogue: (rows) => ({ template: TEMPLATE, data: buildPageData(rows) }),
  loves: (rows) => ({ template: LOVES_LINE.repeat(rows), data: LOVES_VIEW }),
};

/** @returns {() => string} renders the page; the data is built once, the rendering is the work */
export function prepareTemplate({ rows, page = 'catalogue' }) {
  const { template, data } = PAGES[page](rows);
  Mustache.parse(template);
  // A fresh view object per call keeps mustache's per-render context lookups in the measured work.
  return () => Mustache.render(template, { ...data });
}
