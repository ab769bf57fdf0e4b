// Runs in the browser, inlined into report.html after Chart.js: draws the charts from #report-data.
/* global Chart */
(() => {
  const data = JSON.parse(document.getElementById('report-data').textContent);
  // Okabe–Ito: told apart by people with every common colour-vision deficiency.
  const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#F0E442', '#000000'];
  const colour = (index) => PALETTE[index % PALETTE.length];
  // Past the colours, series differ by marker and dash too, so no two look alike.
  const MARKERS = ['circle', 'triangle', 'rect', 'rectRot', 'star', 'crossRot'];
  const look = (index) => ({
    borderColor: colour(index), backgroundColor: colour(index), pointRadius: 4,
    pointStyle: MARKERS[Math.floor(index / PALETTE.length) % MARKERS.length],
    borderDash: index >= PALETTE.length ? [6, 3] : [],
  });
  Chart.defaults.font.size = 13;
  Chart.defaults.animation = false;
  Chart.defaults.maintainAspectRatio = false;
  const axis = (text, extra = {}) => ({ ...extra, title: { display: true, text, font: { weight: 'bold' } } });

  // Whiskers from dataset.intervals[i] = [low, high] (the 95% CI of the cell's centre), in the dataset's colour.
  const errorBars = {
    id: 'errorBars',
    afterDatasetsDraw(chart) {
      const { ctx, scales: { y } } = chart;
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
          ctx.moveTo(point.x, top); ctx.lineTo(point.x, bottom);
          ctx.moveTo(point.x - 5, top); ctx.lineTo(point.x + 5, top);
          ctx.moveTo(point.x - 5, bottom); ctx.lineTo(point.x + 5, bottom);
          ctx.stroke();
        });
        ctx.restore();
      });
    },
  };

  for (const line of data.lines) {
    const numeric = line.xScale !== 'category';
    // A value axis gets exactly the matrix values as ticks, not 1, 2, 3, ... 10, 20.
    const x = numeric
      ? axis(line.xTitle, { type: line.xScale, afterBuildTicks: (scale) => { scale.ticks = line.xValues.map((value) => ({ value })); }, ticks: { callback: (value) => String(value) } })
      : axis(line.xTitle, { offset: true });
    new Chart(document.getElementById(line.id), {
      type: 'line',
      data: {
        labels: line.labels,
        datasets: [
          ...line.series.map((series, i) => ({
            ...look(i), label: series.label, intervals: series.intervals, spanGaps: true,
            data: numeric ? series.values.map((value, j) => ({ x: line.xValues[j], y: value })) : series.values,
          })),
          ...line.series.flatMap((series, i) => modelDataset(series, i, line, numeric)),
        ],
      },
      options: {
        // Whiskers span measured runs (min to max at most), so the axis makes room for them.
        scales: { x, y: axis(line.yTitle, { beginAtZero: true, suggestedMax: Math.max(0, ...line.series.flatMap((series) => [...series.intervals.filter(Boolean).map((interval) => interval[1]), ...(series.model ?? []).filter(Number.isFinite)])) }) },
        plugins: {
          tooltip: {
            callbacks: {
              afterLabel: (item) => {
                if (item.dataset.isModel) return 'capacity model: what this host allows (report: Model vs measured)';
                const interval = item.dataset.intervals?.[item.dataIndex];
                return interval ? `95% CI of the centre: ${interval[0].toPrecision(4)} – ${interval[1].toPrecision(4)}` : 'no CI (n < 2)';
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
    return [{
      label: `${series.label} model`, isModel: true, borderColor: colour(i), backgroundColor: 'transparent',
      borderDash: [8, 4], borderWidth: 1.5, pointRadius: 0, pointHitRadius: 6, spanGaps: true,
      data: numeric ? series.model.map((value, j) => ({ x: line.xValues[j], y: value })) : series.model,
    }];
  }

  if (data.waves.runs.length) {
    const select = document.getElementById('waves-run');
    const chart = new Chart(document.getElementById('waves-chart'), {
      type: 'bar',
      data: wavesDatasets(data.waves.runs[0]),
      options: {
        indexAxis: 'y',
        scales: {
          x: axis('time since the workload started (ms)', { type: 'linear', min: 0 }),
          y: axis('task (index, in submission order)'),
        },
        plugins: {
          tooltip: { callbacks: { label: (item) => `${item.dataset.label}: ${item.raw.x[0].toFixed(1)} → ${item.raw.x[1].toFixed(1)} ms` } },
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
        data: run.tasks.filter((task) => task.group === group).map((task) => ({ y: String(task.task), x: [task.start, task.end] })),
        backgroundColor: colour(i), borderColor: colour(i), grouped: false, barPercentage: 0.8, categoryPercentage: 1,
      })),
    };
  }

  if (data.latency.series.length) {
    new Chart(document.getElementById('latency-chart'), {
      type: 'line',
      data: {
        labels: data.latency.labels,
        datasets: data.latency.series.map((series, i) => ({ ...look(i), label: series.label, data: series.values, spanGaps: true })),
      },
      options: {
        scales: { x: axis('latency percentile', { offset: true }), y: axis('latency, median over repetitions (ms, log scale)', { type: 'logarithmic' }) },
      },
    });
  }
})();
