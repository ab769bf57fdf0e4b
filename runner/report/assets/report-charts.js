// Runs in the browser, inlined into report.html after Chart.js: draws the charts from #report-data.
/* global Chart */
(() => {
  const data = JSON.parse(document.getElementById('report-data').textContent);
  // Okabe–Ito: told apart by people with every common colour-vision deficiency.
  const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#F0E442', '#000000'];
  // Past 8 series in one chart: Kelly's colours of maximum contrast (without white), each series its own colour.
  const MANY = [
    '#222222',
    '#F3C300',
    '#875692',
    '#F38400',
    '#A1CAF1',
    '#BE0032',
    '#C2B280',
    '#848482',
    '#008856',
    '#E68FAC',
    '#0067A5',
    '#F99379',
    '#604E97',
    '#F6A600',
    '#B3446C',
    '#DCD300',
    '#882D17',
    '#8DB600',
    '#654522',
    '#E25822',
    '#2B3D26',
  ];
  const paletteFor = (count) => (count > PALETTE.length ? MANY : PALETTE);
  const colour = (index, count = 0) => {
    const palette = paletteFor(count);
    return palette[index % palette.length];
  };
  // Past even those colours, series differ by marker and dash too, so no two look alike.
  const MARKERS = ['circle', 'triangle', 'rect', 'rectRot', 'star', 'crossRot'];
  const look = (index, count) => {
    const size = paletteFor(count).length;
    return {
      borderColor: colour(index, count),
      backgroundColor: colour(index, count),
      pointRadius: 4,
      pointStyle: MARKERS[Math.floor(index / size) % MARKERS.length],
      borderDash: index >= size ? [6, 3] : [],
    };
  };
  // Room at the edges for the last whisker cap and point.
  const LAYOUT = { padding: { top: 8, right: 14, left: 4 } };
  Chart.defaults.font.size = 13;
  Chart.defaults.animation = false;
  Chart.defaults.maintainAspectRatio = false;
  const axis = (text, extra = {}) => ({ ...extra, title: { display: true, text, font: { weight: 'bold' } } });

  // Whiskers from dataset.intervals[i] = [low, high] (the 95% CI of the cell's centre), in the dataset's colour.
  const errorBars = {
    id: 'errorBars',
    afterDatasetsDraw(chart) {
      const {
        ctx,
        scales: { y },
      } = chart;
      chart.data.datasets.forEach((dataset, d) => {
        const meta = chart.getDatasetMeta(d);
        if (meta.hidden || !dataset.intervals) return;
        ctx.save();
        ctx.strokeStyle = dataset.borderColor;
        ctx.lineWidth = 1.5;
        dataset.intervals.forEach((interval, i) => {
          const point = meta.data[i];
          if (!interval || !point) return;
          const [top, bottom] = [y.getPixelForValue(interval[1]), y.getPixelForValue(interval[0])];
          ctx.beginPath();
          ctx.moveTo(point.x, top);
          ctx.lineTo(point.x, bottom);
          ctx.moveTo(point.x - 5, top);
          ctx.lineTo(point.x + 5, top);
          ctx.moveTo(point.x - 5, bottom);
          ctx.lineTo(point.x + 5, bottom);
          ctx.stroke();
        });
        ctx.restore();
      });
    },
  };

  // A value axis gets exactly the matrix values as ticks, not 1, 2, 3, ... 10, 20, and a margin beyond the first and
  // last value (a fifth of a doubling on log2, 6% of the span on linear) so no point or cap sits on the plot's edge.
  function valueAxis(line) {
    const [low, high] = [Math.min(...line.xValues), Math.max(...line.xValues)];
    const log = line.xScale === 'log2';
    const margin = (high - low) * 0.06 || 1;
    return axis(line.xTitle, {
      type: log ? 'logarithmic' : 'linear',
      min: log ? low / 2 ** 0.2 : low - margin,
      max: log ? high * 2 ** 0.2 : high + margin,
      afterBuildTicks: (scale) => {
        scale.ticks = line.xValues.map((value) => ({ value }));
      },
      ticks: { callback: (value) => String(value) },
    });
  }

  for (const line of data.lines) {
    const numeric = line.xScale !== 'category';
    const x = numeric ? valueAxis(line) : axis(line.xTitle, { offset: true });
    const count = line.series.length;
    new Chart(document.getElementById(line.id), {
      type: 'line',
      data: {
        labels: line.labels,
        datasets: [
          ...line.series.map((series, i) => ({
            ...look(i, count),
            label: series.label,
            intervals: series.intervals,
            spanGaps: true,
            data: numeric ? series.values.map((value, j) => ({ x: line.xValues[j], y: value })) : series.values,
          })),
          ...line.series.flatMap((series, i) => modelDataset(series, i, line, numeric)),
        ],
      },
      options: {
        layout: LAYOUT,
        // The axis makes room for every whisker and model point, and a little more, so no cap touches the top.
        scales: {
          x,
          y: axis(line.yTitle, {
            beginAtZero: true,
            grace: '6%',
            suggestedMax: Math.max(
              0,
              ...line.series.flatMap((series) => [
                ...series.intervals.filter(Boolean).map((interval) => interval[1]),
                ...(series.model ?? []).filter(Number.isFinite),
              ]),
            ),
          }),
        },
        plugins: {
          // A model line has its series' colour, dashed (the section says so): the legend lists the series only.
          legend: { labels: { filter: (item, chartData) => !chartData.datasets[item.datasetIndex].isModel } },
          tooltip: {
            callbacks: {
              afterLabel: (item) => {
                if (item.dataset.isModel) return 'capacity model: what this host allows (report: Model vs measured)';
                const interval = item.dataset.intervals?.[item.dataIndex];
                return interval
                  ? `95% CI of the centre: ${interval[0].toPrecision(4)} – ${interval[1].toPrecision(4)}`
                  : 'no CI (n < 2)';
              },
            },
          },
        },
      },
      plugins: [errorBars],
    });
  }

  // The capacity model of a series (what the host allows each point): its colour, dashed, no markers.
  function modelDataset(series, i, line, numeric) {
    if (!series.model?.some(Number.isFinite)) return [];
    return [
      {
        label: `${series.label} model`,
        isModel: true,
        borderColor: colour(i, line.series.length),
        backgroundColor: 'transparent',
        borderDash: [8, 4],
        borderWidth: 1.5,
        pointRadius: 0,
        pointHitRadius: 6,
        spanGaps: true,
        data: numeric ? series.model.map((value, j) => ({ x: line.xValues[j], y: value })) : series.model,
      },
    ];
  }

  if (data.waves.runs.length) {
    const select = document.getElementById('waves-run');
    select.value = String(data.waves.initial);
    const chart = new Chart(document.getElementById('waves-chart'), {
      type: 'bar',
      data: wavesDatasets(data.waves.runs[data.waves.initial]),
      options: {
        layout: LAYOUT,
        indexAxis: 'y',
        scales: {
          x: axis('time since the workload started (ms)', { type: 'linear', min: 0 }),
          y: axis('task (submission order)'),
        },
        plugins: {
          tooltip: {
            callbacks: {
              label: (item) => `${item.dataset.label}: ${item.raw.x[0].toFixed(1)} → ${item.raw.x[1].toFixed(1)} ms`,
            },
          },
        },
      },
    });
    select.addEventListener('change', () => {
      chart.data = wavesDatasets(data.waves.runs[Number(select.value)]);
      chart.update();
    });
  }

  function wavesDatasets(run) {
    const groups = [...new Set(run.tasks.map((task) => task.group))];
    return {
      labels: run.tasks.map((task) => String(task.task)),
      datasets: groups.map((group, i) => ({
        label: group,
        data: run.tasks
          .filter((task) => task.group === group)
          .map((task) => ({ y: String(task.task), x: [task.start, task.end] })),
        backgroundColor: colour(i),
        borderColor: colour(i),
        grouped: false,
        barPercentage: 0.8,
        categoryPercentage: 1,
      })),
    };
  }

  // One chart, or small multiples on one y range: a series has the same colour in every panel.
  const { latency } = data;
  for (const panel of latency.panels) {
    new Chart(document.getElementById(panel.id), {
      type: 'line',
      data: {
        labels: latency.labels,
        datasets: panel.series.map((series) => ({
          ...look(series.colour, latency.colours),
          label: series.label,
          data: series.values,
          spanGaps: true,
        })),
      },
      options: {
        layout: LAYOUT,
        scales: {
          x: axis('percentile', { offset: true }),
          y: axis('latency (ms, log scale)', {
            type: 'logarithmic',
            min: latency.range[0] / 1.15,
            max: latency.range[1] * 1.15,
          }),
        },
      },
    });
  }
})();
