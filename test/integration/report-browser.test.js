// Opens generated report.html files in Debian's headless Chromium (scripts/setup-browser.js installs it):
// every chart draws, nothing is fetched, the console stays clean. Never skipped: without Chromium it fails.
// UPDATE_SCREENSHOT=1 also writes docs/report-screenshot.png from the real default run.
import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { writeReports } from '../../runner/report/write-reports.js';

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOT = fileURLToPath(new URL('../../docs/report-screenshot.png', import.meta.url));
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run \`node scripts/setup-browser.js\` (as root on Debian) or \`apt-get install chromium\``);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
});

afterAll(async () => {
  await browser?.close();
});

function reportOf(name) {
  const dir = join(mkdtempSync(join(tmpdir(), 'report-browser-')), name);
  cpSync(fileURLToPath(new URL(`../fixtures/results/${name}`, import.meta.url)), dir, { recursive: true });
  writeReports(dir);
  return join(dir, 'report.html');
}

async function open(file) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('request', (request) => {
    if (!request.url().startsWith('file:') && !request.url().startsWith('data:')) problems.push(`fetched ${request.url()}`);
  });
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  return { page, problems };
}

/** Per canvas: its id and how many pixels are not transparent; per SVG: how many shapes it holds. */
function inspectCharts(page) {
  return page.evaluate(() => ({
    canvases: [...document.querySelectorAll('canvas')].map((canvas) => {
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      let painted = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) painted++;
      return { id: canvas.id, width: canvas.width, height: canvas.height, painted };
    }),
    svgs: [...document.querySelectorAll('svg.heatmap')].map((svg) => ({
      cells: svg.querySelectorAll('rect > title').length,
      texts: [...svg.querySelectorAll('text')].map((text) => text.textContent),
      box: svg.getBoundingClientRect().width * svg.getBoundingClientRect().height,
    })),
    chartTitles: [...document.querySelectorAll('canvas')].map((canvas) => {
      const chart = window.Chart.getChart(canvas);
      return Object.values(chart.options.scales).map((scale) => scale.title.display && scale.title.text);
    }),
  }));
}

test('the real default run: heatmaps, a line chart per workload and the waves draw, with axis titles, offline', async () => {
  const { page, problems } = await open(reportOf('pool-vs-cores'));
  const charts = await inspectCharts(page);
  expect(charts.canvases.map((canvas) => canvas.id)).toEqual(['line-0', 'line-1', 'waves-chart']);
  for (const canvas of charts.canvases) expect(canvas.painted).toBeGreaterThan(canvas.width * canvas.height * 0.01);
  expect(charts.svgs.map((svg) => svg.cells)).toEqual([8, 8]);
  for (const svg of charts.svgs) {
    expect(svg.box).toBeGreaterThan(0);
    expect(svg.texts).toEqual(expect.arrayContaining(['↓ uv_threadpool_size: libuv pool (threads)', 'cpus: CPU quota (CPUs)', 'wall_ms_median (ms)', 'lower is better']));
  }
  expect(charts.svgs[0].texts).toEqual(expect.arrayContaining(['5724', '5858', '3037']));
  expect(charts.chartTitles).toEqual([
    ['uv_threadpool_size: libuv pool (threads)', 'wall_ms median (ms)'],
    ['uv_threadpool_size: libuv pool (threads)', 'wall_ms median (ms)'],
    ['time since the workload started (ms)', 'task (index, in submission order)'],
  ]);

  // Each line chart has the capacity model beside each measured line: dashed, one point per cell, in the legend.
  const models = await page.evaluate(() => ['line-0', 'line-1'].map((id) => window.Chart.getChart(document.getElementById(id)).data.datasets
    .filter((dataset) => dataset.isModel)
    .map((dataset) => ({ label: dataset.label, dashed: dataset.borderDash.length > 0, points: dataset.data.filter((point) => point.y > 0).length }))));
  expect(models).toEqual(Array(2).fill([{ label: 'cpus=1 model', dashed: true, points: 4 }, { label: 'cpus=2 model', dashed: true, points: 4 }]));
  expect(await page.$$eval('#model table tbody tr', (rows) => rows.length)).toBe(16);

  // Another run in the waves picker redraws the chart.
  const label = await page.$eval('#waves-run', (select) => [...select.options].find((option) => option.text.startsWith('pbkdf2 cpus=2 uv_threadpool_size=4 ')).text);
  await page.selectOption('#waves-run', { label });
  const waves = await page.evaluate(() => window.Chart.getChart(document.getElementById('waves-chart')).data.datasets[0].data.length);
  expect(waves).toBe(16);

  if (process.env.UPDATE_SCREENSHOT === '1') {
    const bottom = await page.$eval('#waves', (section) => section.getBoundingClientRect().bottom + window.scrollY);
    await page.screenshot({ path: SCREENSHOT, clip: { x: 0, y: 0, width: 1280, height: Math.ceil(bottom) + 16 }, fullPage: true });
  }
  expect(problems).toEqual([]);
  await page.close();
});

test('http cells: the latency percentiles chart and both http heatmaps draw too', async () => {
  const { page, problems } = await open(reportOf('http-mixed'));
  const charts = await inspectCharts(page);
  expect(charts.canvases.map((canvas) => canvas.id)).toEqual(['line-0', 'line-1', 'line-2', 'waves-chart', 'latency-chart']);
  for (const canvas of charts.canvases) expect(canvas.painted).toBeGreaterThan(canvas.width * canvas.height * 0.01);
  expect(charts.svgs.map((svg) => svg.cells)).toEqual([4, 4, 4]);
  expect(charts.svgs[0].texts).toEqual(expect.arrayContaining(['requests_per_sec_median (req/s)', 'higher is better']));
  expect(charts.chartTitles.at(-1)).toEqual(['latency percentile', 'latency, median over repetitions (ms, log scale)']);
  expect(await page.textContent('header')).toContain('<b>not bold</b>');
  expect(problems).toEqual([]);
  await page.close();
});
