// Opens generated report.html files in Debian's headless Chromium (scripts/setup-browser.js installs it):
// every chart draws, nothing is fetched, the console stays clean; the answers are above the fold; no axis title is
// clipped, no whisker cap or point leaves its plot; powers of two sit on a log2 axis; a chart never shows two
// series alike; every table fits the page or scrolls inside its box. Never skipped: without Chromium it fails.
// Each chart is written as a screenshot to test-artifacts/report-browser/ (ignored by git; CI keeps it as an
// artefact). UPDATE_SCREENSHOT=1 also writes docs/report-screenshot.png from the real default run.
import { cpSync, existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { writeReports } from '../../runner/report/write-reports.js';

const CHROMIUM = '/usr/bin/chromium';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCREENSHOT = join(ROOT, 'docs/report-screenshot.png');
const ARTIFACTS = join(ROOT, 'test-artifacts/report-browser');
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
const VIEWPORT = { width: 1280, height: 900 };

let browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `${CHROMIUM} is missing: run \`node scripts/setup-browser.js\` (as root on Debian) or \`apt-get install chromium\``,
    );
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  mkdirSync(ARTIFACTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
});

/** A copy of a kept results folder (test/fixtures/results/NAME or docs/findings/NAME) with fresh reports. */
function reportOf(folder) {
  const dir = join(mkdtempSync(join(tmpdir(), 'report-browser-')), basename(folder));
  cpSync(join(ROOT, folder), dir, { recursive: true });
  writeReports(dir);
  return join(dir, 'report.html');
}

async function open(file, viewport = VIEWPORT) {
  const page = await browser.newPage({ viewport });
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('request', (request) => {
    if (!request.url().startsWith('file:') && !request.url().startsWith('data:'))
      problems.push(`fetched ${request.url()}`);
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

/** One screenshot per chart (each canvas's and heatmap's figure) and one of the whole page, into ARTIFACTS. */
async function writeScreenshots(page, name) {
  const figures = await page.$$('figure');
  let index = 0;
  for (const figure of figures) {
    const id = await figure.evaluate(
      (node) => node.querySelector('canvas')?.id ?? (node.querySelector('svg.heatmap') ? 'heatmap' : null),
    );
    if (!id) continue;
    await figure.scrollIntoViewIfNeeded();
    await figure.screenshot({ path: join(ARTIFACTS, `${name}--${String(index++).padStart(2, '0')}-${id}.png`) });
  }
  await page.screenshot({ path: join(ARTIFACTS, `${name}--page.png`), fullPage: true });
  return index;
}

/**
 * What a person could see cut or confused, per Chart.js chart: each axis title longer than its axis (a title is
 * centred on its axis and clipped past it); each whisker cap (5 px either side) or point outside the plot area;
 * two series of one chart drawn alike (colour, dash and marker).
 */
function findLayoutProblems(page) {
  return page.evaluate(() => {
    const problems = [];
    for (const canvas of document.querySelectorAll('canvas')) {
      const chart = window.Chart.getChart(canvas);
      const { ctx, chartArea: area } = chart;
      for (const scale of Object.values(chart.scales)) {
        const { title } = scale.options;
        if (!title.display) continue;
        ctx.save();
        ctx.font = window.Chart.helpers.toFont(title.font).string;
        const width = ctx.measureText(title.text).width;
        ctx.restore();
        const room = scale.isHorizontal() ? scale.width : scale.height;
        if (width > room)
          problems.push(
            `${canvas.id}: the ${scale.id} title "${title.text}" is ${Math.round(width)} px on a ${Math.round(room)} px axis`,
          );
      }
      const { y } = chart.scales;
      chart.data.datasets.forEach((dataset, d) => {
        const meta = chart.getDatasetMeta(d);
        meta.data.forEach((point, i) => {
          if (!Number.isFinite(point.x) || !Number.isFinite(point.y) || dataset.isModel || chart.config.type !== 'line')
            return;
          if (point.x < area.left - 0.5 || point.x > area.right + 0.5)
            problems.push(
              `${canvas.id}: point ${dataset.label}[${i}] at x ${point.x} outside ${area.left}–${area.right}`,
            );
          const interval = dataset.intervals?.[i];
          if (!interval) return;
          const [top, bottom] = [y.getPixelForValue(interval[1]), y.getPixelForValue(interval[0])];
          if (
            point.x - 5 < area.left - 0.5 ||
            point.x + 5 > area.right + 0.5 ||
            top < area.top - 0.5 ||
            bottom > area.bottom + 0.5
          ) {
            problems.push(
              `${canvas.id}: whisker ${dataset.label}[${i}] (x ${Math.round(point.x)}, y ${Math.round(top)}–${Math.round(bottom)}) leaves the plot (${area.left}–${area.right}, ${area.top}–${area.bottom})`,
            );
          }
        });
      });
      if (chart.config.type === 'line') {
        const looks = chart.data.datasets
          .filter((dataset) => !dataset.isModel)
          .map((dataset) =>
            JSON.stringify([dataset.borderColor, dataset.borderDash ?? [], dataset.pointStyle ?? 'circle']),
          );
        if (new Set(looks).size !== looks.length)
          problems.push(`${canvas.id}: ${looks.length} series in ${new Set(looks).size} looks`);
      }
    }
    return problems;
  });
}

/** Boxes wider than the page: the page scrolls sideways, or a table pokes out of a box that does not scroll. */
function findOverflow(page) {
  return page.evaluate(() => {
    const problems = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width)
      problems.push(`the page is ${document.documentElement.scrollWidth} px wide in a ${width} px window`);
    for (const table of document.querySelectorAll('table')) {
      const box = table.parentElement;
      const scrolls = ['auto', 'scroll'].includes(getComputedStyle(box).overflowX);
      if (!scrolls && table.getBoundingClientRect().right > box.getBoundingClientRect().right + 0.5)
        problems.push(
          `a table is wider than its box, which does not scroll: ${table.querySelector('th')?.textContent}`,
        );
      if (box.getBoundingClientRect().right > width + 0.5)
        problems.push(`a table's box ends at ${box.getBoundingClientRect().right} px in a ${width} px window`);
    }
    return problems;
  });
}

/** Where the answers start and where the first of them ends, in px from the top of the page. */
function locateAnswers(page) {
  return page.evaluate(() => {
    // The first answer: an advice table's sentence, else a claim or a step.
    const first = document.querySelector('#advice .advice-words, #advice li, #answers li');
    const top = (selector) => document.querySelector(selector)?.getBoundingClientRect().top ?? null;
    return {
      fold: window.innerHeight,
      firstAnswerBottom: first ? first.getBoundingClientRect().bottom : null,
      order: ['#advice', '#answers', '#heatmaps', '#scaling', '#summary', '#method']
        .map((selector) => [selector, top(selector)])
        .filter(([, at]) => at !== null)
        .sort(([, a], [, b]) => a - b)
        .map(([selector]) => selector),
    };
  });
}

async function checkPage(name, { page, problems }) {
  const answers = await locateAnswers(page);
  expect(answers.firstAnswerBottom).not.toBeNull();
  expect(answers.firstAnswerBottom).toBeLessThan(answers.fold);
  expect(
    answers.order
      .slice(0, answers.order.indexOf('#answers') + 1)
      .every((selector) => ['#advice', '#answers'].includes(selector)),
  ).toBe(true);
  expect(answers.order.at(-1)).toBe('#method');
  expect(await findLayoutProblems(page)).toEqual([]);
  expect(await findOverflow(page)).toEqual([]);
  expect(await writeScreenshots(page, name)).toBeGreaterThan(0);
  expect(problems).toEqual([]);
}

test('the real default run: heatmaps, a line chart per workload and the waves draw, with axis titles, offline', async () => {
  const opened = await open(reportOf('test/fixtures/results/pool-vs-cores'));
  const { page } = opened;
  const charts = await inspectCharts(page);
  expect(charts.canvases.map((canvas) => canvas.id)).toEqual(['line-0', 'line-1', 'waves-chart']);
  for (const canvas of charts.canvases) expect(canvas.painted).toBeGreaterThan(canvas.width * canvas.height * 0.01);
  expect(charts.svgs.map((svg) => svg.cells)).toEqual([8, 8]);
  for (const svg of charts.svgs) {
    expect(svg.box).toBeGreaterThan(0);
    expect(svg.texts).toEqual(
      expect.arrayContaining([
        '↓ uv_threadpool_size: libuv pool (threads)',
        'cpus: CPU quota (CPUs)',
        'wall_ms_median (ms)',
        'lower is better',
      ]),
    );
  }
  expect(charts.svgs[0].texts).toEqual(expect.arrayContaining(['5724', '5858', '3037']));
  expect(charts.chartTitles).toEqual([
    ['uv_threadpool_size: libuv pool (threads), log₂ scale', 'wall_ms median (ms)'],
    ['uv_threadpool_size: libuv pool (threads), log₂ scale', 'wall_ms median (ms)'],
    ['time since the workload started (ms)', 'task (submission order)'],
  ]);

  // Each line chart has the capacity model beside each measured line: dashed, one point per cell, in the legend.
  const models = await page.evaluate(() =>
    ['line-0', 'line-1'].map((id) =>
      window.Chart.getChart(document.getElementById(id))
        .data.datasets.filter((dataset) => dataset.isModel)
        .map((dataset) => ({
          label: dataset.label,
          dashed: dataset.borderDash.length > 0,
          points: dataset.data.filter((point) => point.y > 0).length,
        })),
    ),
  );
  expect(models).toEqual(
    Array(2).fill([
      { label: 'cpus=1 model', dashed: true, points: 4 },
      { label: 'cpus=2 model', dashed: true, points: 4 },
    ]),
  );
  expect(await page.$$eval('#model table tbody tr', (rows) => rows.length)).toBe(16);

  // Pool sizes 1, 2, 4, 8 on a log2 axis: each doubling is the same distance.
  const steps = await page.evaluate(() => {
    const { x } = window.Chart.getChart(document.getElementById('line-0')).scales;
    return [1, 2, 4, 8]
      .map((value) => x.getPixelForValue(value))
      .slice(1)
      .map((at, i, all) => at - (i === 0 ? x.getPixelForValue(1) : all[i - 1]));
  });
  expect(Math.max(...steps) - Math.min(...steps)).toBeLessThan(1);

  // The waves chart opens on the clearest waves (pbkdf2, 2 CPUs, a pool of 4: 4 waves of 4); another run redraws it.
  const opening = await page.$eval('#waves-run', (select) => select.options[select.selectedIndex].text);
  expect(opening).toMatch(/^pbkdf2 cpus=2 uv_threadpool_size=4 · repetition 1/);
  expect(
    await page.evaluate(
      () => window.Chart.getChart(document.getElementById('waves-chart')).data.datasets[0].data.length,
    ),
  ).toBe(16);
  const label = await page.$eval(
    '#waves-run',
    (select) =>
      [...select.options].find((option) => option.text.startsWith('argon2 cpus=1 uv_threadpool_size=1 ')).text,
  );
  await page.selectOption('#waves-run', { label });
  expect(
    await page.evaluate(
      () => window.Chart.getChart(document.getElementById('waves-chart')).data.datasets[0].data.length,
    ),
  ).toBe(8);
  await page.selectOption('#waves-run', { label: opening });

  if (process.env.UPDATE_SCREENSHOT === '1') {
    const bottom = await page.$eval('#waves', (section) => section.getBoundingClientRect().bottom + window.scrollY);
    await page.screenshot({
      path: SCREENSHOT,
      clip: { x: 0, y: 0, width: 1280, height: Math.ceil(bottom) + 16 },
      fullPage: true,
    });
  }
  await checkPage('pool-vs-cores', opened);
  await page.close();
});

test('http cells: the latency percentiles chart and both http heatmaps draw too', async () => {
  const opened = await open(reportOf('test/fixtures/results/http-mixed'));
  const { page } = opened;
  const charts = await inspectCharts(page);
  expect(charts.canvases.map((canvas) => canvas.id)).toEqual([
    'line-0',
    'line-1',
    'line-2',
    'waves-chart',
    'latency-0',
  ]);
  for (const canvas of charts.canvases) expect(canvas.painted).toBeGreaterThan(canvas.width * canvas.height * 0.01);
  expect(charts.svgs.map((svg) => svg.cells)).toEqual([4, 4, 4]);
  expect(charts.svgs[0].texts).toEqual(expect.arrayContaining(['requests_per_sec_median (req/s)', 'higher is better']));
  expect(charts.chartTitles.at(-1)).toEqual(['percentile', 'latency (ms, log scale)']);
  expect(await page.textContent('header')).toContain('<b>not bold</b>');
  await checkPage('http-mixed', opened);
  await page.close();
});

test('the published http matrix: 16 latency series as 4 panels of 4, the advice above the fold, a wide summary that scrolls in its box', async () => {
  const opened = await open(reportOf('docs/findings/http-cores-threads'));
  const { page } = opened;
  const panels = await page.evaluate(() =>
    [...document.querySelectorAll('#latency canvas')].map((canvas) => {
      const { datasets } = window.Chart.getChart(canvas).data;
      return {
        title: canvas.closest('figure').querySelector('figcaption').textContent,
        series: datasets.map((dataset) => [dataset.label, dataset.borderColor]),
      };
    }),
  );
  expect(panels.map((panel) => panel.title)).toEqual(['cpus=0.5', 'cpus=1', 'cpus=1.5', 'cpus=2']);
  // workers=1 … 4 in four distinct colours, the same four in every panel.
  expect(new Set(panels[0].series.map(([, colour]) => colour)).size).toBe(4);
  for (const panel of panels) expect(panel.series).toEqual(panels[0].series);
  // The answers open the page: the advice first (one table a budget), then the claims.
  expect(await page.$eval('#advice', (section) => section.getBoundingClientRect().top)).toBeLessThan(900);
  await checkPage('http-cores-threads', opened);
  await page.close();
});

test('pool sizes 1, 2, 4, 8, 32 on a log2 axis (argon2, 32 hashes); a narrow window still fits', async () => {
  const file = reportOf('docs/findings/argon2-pool-32');
  const opened = await open(file);
  const { page } = opened;
  const ticks = await page.evaluate(() => {
    const { x } = window.Chart.getChart(document.getElementById('line-0')).scales;
    return { type: x.type, at: [1, 2, 4, 8, 32].map((value) => x.getPixelForValue(value)) };
  });
  expect(ticks.type).toBe('logarithmic');
  const step = ticks.at[1] - ticks.at[0];
  expect(ticks.at[4] - ticks.at[3]).toBeCloseTo(2 * step, 0);
  await checkPage('argon2-pool-32', opened);
  await page.close();

  const narrow = await open(file, { width: 760, height: 900 });
  expect(await findOverflow(narrow.page)).toEqual([]);
  expect(await findLayoutProblems(narrow.page)).toEqual([]);
  expect(narrow.problems).toEqual([]);
  await narrow.page.close();
});
