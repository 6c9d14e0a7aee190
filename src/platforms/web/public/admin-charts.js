// The admin page's charts (uPlot, served by the bot), each with its numbers as a table under it.

import { $, dollars, el, ms, number, percent, table } from './admin-dom.js';

// Ticks of counts are whole numbers.
const COUNT_STEPS = [
  1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6, 2e6, 5e6, 1e7, 1e8,
  1e9,
];
const COLORS = ['#2d5b8a', '#c0762b', '#2f8a4e', '#8a2d6f', '#6b6f74', '#b0413e'];
const sum = (xs) => xs.reduce((a, b) => a + (b ?? 0), 0);

let plots = [];
let lastCharts;

/** Each chart: its name, title, series (label, values, kind) and how a value reads. */
function chartSpecs(c) {
  const stacked = (values) => c.platforms.map((p) => ({ label: p, values: values[p] ?? [] }));
  const specs = [
    {
      name: 'questions',
      title: 'Questions per day, by platform',
      stack: stacked(c.questions),
      format: number,
    },
    { name: 'tokens', title: 'Tokens per day, by platform', stack: stacked(c.tokens), format: number },
  ];
  if (c.cost)
    specs.push({
      name: 'cost',
      title: 'Estimated cost per day (USD)',
      lines: [{ label: 'cost', values: c.cost }],
      format: dollars,
    });
  specs.push(
    {
      name: 'cached',
      title: 'Cached share of prompt tokens',
      lines: [{ label: 'cached', values: c.cachedShare }],
      format: percent,
      // A share is 0–1 whatever the days hold (all zero would leave uPlot to pick 0–100, read as 10000%).
      range: [0, 1],
    },
    pair('votes', 'Votes per day (up / down)', 'bars', { up: c.up, down: c.down }, number),
    pair('duration', 'Run duration p50 / p95', 'lines', { p50: c.p50, p95: c.p95 }, ms),
    pair(
      'refusals',
      'Refused and limited per day',
      'bars',
      { refused: c.refused, limited: c.limited },
      number,
    ),
  );
  return specs;
}

/** A chart of a few series drawn the same way (`bars` or `lines`), labelled by their keys. */
function pair(name, title, kind, series, format) {
  return {
    name,
    title,
    [kind]: Object.entries(series).map(([label, values]) => ({ label, values })),
    format,
  };
}

/** Draws the overview's charts of `c` (the API's `charts`) into #charts, replacing those drawn before. */
export function drawCharts(c) {
  lastCharts = c;
  for (const plot of plots) plot.destroy();
  plots = [];
  const box = $('charts');
  box.replaceChildren();
  const xs = c.days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
  for (const spec of chartSpecs(c)) {
    const series = spec.stack ?? spec.lines ?? spec.bars;
    const figure = el('figure', undefined, { 'data-chart': spec.name });
    for (const s of series) figure.setAttribute(`data-sum-${slug(s.label)}`, String(sum(s.values)));
    figure.append(el('figcaption', spec.title));
    const plotBox = el('div', undefined, { class: 'plot', 'aria-hidden': 'true' });
    figure.append(plotBox);
    figure.append(numbersTable(c.days, series, spec.format));
    box.append(figure);
    if (typeof uPlot === 'function') plots.push(plot(plotBox, xs, spec));
  }
}

const slug = (label) => label.replace(/[^a-z0-9]+/gi, '-').toLowerCase();

/** The chart's numbers as a table under it (folded): what a screen reader or a test reads. */
function numbersTable(days, series, format) {
  const details = el('details');
  details.append(el('summary', 'Numbers'));
  const rows = days.map((day, i) => [day, ...series.map((s) => format(s.values[i]))]);
  const node = el('table', undefined, { class: 'numbers' });
  table(node, ['Day', ...series.map((s) => s.label)], rows.reverse());
  details.append(node);
  return details;
}

function plot(target, xs, spec) {
  const width = Math.max(260, Math.min(target.parentElement.clientWidth - 8, 900));
  const bars = uPlot.paths.bars({ size: [0.7, 60] });
  const series = [{}];
  const data = [xs];
  if (spec.stack) {
    // Stacked by hand: each platform's bar reaches the running total; the tallest is drawn first.
    const running = xs.map(() => 0);
    const tops = spec.stack.map((s) => s.values.map((v, i) => (running[i] += v ?? 0)));
    for (let i = spec.stack.length - 1; i >= 0; i--) {
      series.push({
        label: spec.stack[i].label,
        fill: COLORS[i % COLORS.length],
        stroke: COLORS[i % COLORS.length],
        paths: bars,
        value: (_, v) => spec.format(v),
      });
      data.push(tops[i]);
    }
  } else {
    (spec.lines ?? spec.bars).forEach((s, i) => {
      series.push({
        label: s.label,
        stroke: COLORS[i % COLORS.length],
        width: 2,
        spanGaps: false,
        points: { show: true, size: 5 },
        ...(spec.bars
          ? {
              fill: COLORS[i % COLORS.length],
              paths: uPlot.paths.bars({ size: [0.35, 30], align: i === 0 ? -1 : 1 }),
            }
          : {}),
        value: (_, v) => spec.format(v),
      });
      data.push(s.values);
    });
  }
  return new uPlot(
    {
      width,
      height: 200,
      series,
      scales: { x: { time: true }, ...(spec.range ? { y: { range: spec.range } } : {}) },
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      axes: [
        {},
        {
          values: (_, ticks) => {
            const labels = ticks.map((v) => spec.format(v));
            // The axis as drawn, for a test or a screen reader's inspection (the canvas has no text).
            target.closest('figure')?.setAttribute('data-y-ticks', labels.join(' '));
            return labels;
          },
          size: 70,
          ...(spec.format === number ? { incrs: COUNT_STEPS } : {}),
        },
      ],
      legend: { live: false },
      cursor: { show: false },
    },
    data,
    target,
  );
}

let resizeTimer;
window.addEventListener('resize', () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => lastCharts && !$('overview').hidden && drawCharts(lastCharts), 200);
});
