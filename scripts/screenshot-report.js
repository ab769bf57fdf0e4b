// Screenshots of report.html, for docs (the README's docs/report-screenshot.png, docs/findings/*.png):
//   node scripts/screenshot-report.js DIR OUT.png SECTION[:N,...] ...
// SECTION is a section id of report.html (advice, heatmaps, scaling, waves, latency, summary): its figures where it
// has some, else the whole section (the advice's tables); `waves:0,2` takes the waves chart of the runs at those
// positions of its run list. The pieces are stacked in one PNG. The README's picture is
//   node scripts/screenshot-report.js docs/settling/race-1 docs/report-screenshot.png advice heatmaps
// Uses Debian's Chromium (/usr/bin/chromium, installed by scripts/setup-browser.js).

import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const [dir, out, ...sections] = process.argv.slice(2);
if (!dir || !out || sections.length === 0) {
  console.error('usage: node scripts/screenshot-report.js DIR OUT.png SECTION[:N,...] ...');
  process.exit(2);
}

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  await page.goto(pathToFileURL(join(dir, 'report.html')).href, { waitUntil: 'load' });
  const shots = [];
  for (const item of sections) {
    const [id, picks] = item.split(':');
    const inner = page.locator(`#${id} .figures`);
    const figures = (await inner.count()) > 0 ? inner : page.locator(`#${id}`);
    if (!picks) {
      shots.push(await figures.screenshot({ animations: 'disabled' }));
      continue;
    }
    for (const pick of picks.split(',')) {
      await page.selectOption('#waves-run', pick);
      await page.waitForTimeout(300);
      shots.push(await figures.screenshot({ animations: 'disabled' }));
    }
  }
  const sheet = await browser.newPage({ viewport: { width: 1200, height: 600 } });
  const images = shots
    .map(
      (shot) => `<img style="display:block;max-width:1200px" src="data:image/png;base64,${shot.toString('base64')}">`,
    )
    .join('');
  await sheet.setContent(`<body style="margin:0;background:#fff">${images}</body>`);
  await sheet.screenshot({ path: out, fullPage: true });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
}
