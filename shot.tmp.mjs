import { chromium } from 'playwright-core';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
await page.goto('file://' + process.argv[2]);
const sel = process.argv[3];
if (sel) await (await page.$(sel)).screenshot({ path: '/tmp/shot1.png' });
else await page.screenshot({ path: '/tmp/shot1.png' });
await browser.close();
