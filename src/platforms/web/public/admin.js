// The admin page: charts (uPlot, served by the bot), runs and their steps, the settings in force. Every text
// from the store (questions, answers, tool output, names) is set with textContent, never parsed as HTML.

import { showEvals, showRunEvals } from './admin-evals.js';
import { showSessions } from './admin-sessions.js';

const $ = (id) => document.getElementById(id);
const status = $('status');
const views = ['overview', 'runs', 'run', 'settings', 'sessions', 'evals'];
// Ticks of counts are whole numbers.
const COUNT_STEPS = [
  1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6, 2e6, 5e6, 1e7, 1e8,
  1e9,
];
const COLORS = ['#2d5b8a', '#c0762b', '#2f8a4e', '#8a2d6f', '#6b6f74', '#b0413e'];
const number = (n) => (n === null || n === undefined ? '–' : Math.round(n).toLocaleString('en-US'));
const ms = (n) => (n === null || n === undefined ? '–' : n < 1000 ? `${n} ms` : `${(n / 1000).toFixed(1)} s`);
const dollars = (n) => (n === null || n === undefined ? '–' : `$${n.toFixed(n < 1 ? 4 : 2)}`);
const percent = (n) => (n === null || n === undefined ? '–' : `${(n * 100).toFixed(1)}%`);
const sum = (xs) => xs.reduce((a, b) => a + (b ?? 0), 0);

/** An element with `text` as its text (never HTML) and the given attributes. */
function el(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  return node;
}

async function getJson(path) {
  const res = await fetch(path, { cache: 'no-store', headers: { accept: 'application/json' } });
  const body = res.status === 204 ? undefined : await res.json().catch(() => undefined);
  return { status: res.status, body };
}

function say(text) {
  status.textContent = text;
}

let runLogDays = 0;

async function start() {
  const { status: code, body } = await getJson('/admin/api/session');
  if (code !== 200) return showGate(code, body ?? {});
  runLogDays = body.runLogDays;
  $('gate').hidden = true;
  $('tabs').hidden = false;
  $('who').hidden = false;
  $('who').textContent = `Signed in as ${body.who}`;
  $('logout').hidden = !body.byToken;
  window.addEventListener('hashchange', route);
  await route();
}

function showGate(code, body) {
  $('gate').hidden = false;
  for (const view of views) $(view).hidden = true;
  const text = $('gate-text');
  if (code === 401 && body.auth === 'token') {
    text.textContent = 'Give the admin token (ADMIN_TOKEN) to see usage, runs and settings.';
    $('login').hidden = false;
    $('token').focus();
  } else if (code === 401) {
    text.textContent = 'Sign in as an admin (ADMIN_USERS), then open /admin again.';
    $('gate-sign-in').hidden = false;
    $('gate-sign-in').href = body.signIn ?? '/auth/sign-in';
  } else {
    text.textContent = body.error ?? `The admin page is not available (${code}).`;
  }
}

$('login').addEventListener('submit', async (event) => {
  event.preventDefault();
  const res = await fetch('/admin/api/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: $('token').value }),
  });
  $('token').value = '';
  if (res.status === 204) {
    $('login').hidden = true;
    return start();
  }
  const body = await res.json().catch(() => ({}));
  say(body.error ?? 'That did not work.');
});

$('logout').addEventListener('click', async () => {
  await fetch('/admin/api/logout', { method: 'POST' });
  location.reload();
});

async function route() {
  const hash = location.hash.slice(1) || 'overview';
  const [view, arg] = hash.split('/');
  const shown = views.includes(view) ? view : 'overview';
  for (const name of views) $(name).hidden = name !== shown;
  for (const link of document.querySelectorAll('#tabs a')) {
    if (link.dataset.tab === shown || (shown === 'run' && link.dataset.tab === 'runs'))
      link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  say('Loading…');
  try {
    if (shown === 'overview') await showOverview();
    else if (shown === 'runs') await showRuns(false);
    else if (shown === 'run') await showRun(arg);
    else if (shown === 'sessions') await showSessions(say);
    else if (shown === 'evals') await showEvals(say);
    else await showSettings();
    say('');
  } catch (err) {
    say(`Could not load this: ${err instanceof Error ? err.message : err}`);
  }
}

// Overview -----------------------------------------------------------------------------------------------

function filterQuery() {
  const form = new FormData($('filters'));
  const query = new URLSearchParams();
  for (const [name, value] of form) if (String(value).trim()) query.set(name, String(value).trim());
  return query;
}

$('filters').addEventListener('submit', (event) => {
  event.preventDefault();
  void showOverview();
});

function fillSelect(select, values) {
  const chosen = select.value;
  select.replaceChildren(el('option', 'all', { value: '' }));
  for (const value of values) select.append(el('option', value, { value }));
  if (chosen && !values.includes(chosen)) select.append(el('option', chosen, { value: chosen }));
  select.value = chosen;
}

async function showOverview() {
  const { status: code, body } = await getJson(`/admin/api/stats?${filterQuery()}`);
  if (code !== 200) throw new Error(body?.error ?? String(code));
  fillSelect($('f-platform'), body.platforms);
  fillSelect($('f-model'), body.models);
  const c = body.charts;
  const t = c.totals;
  const totals = [
    ['questions', 'Questions', number(t.questions), t.questions],
    ['tokens', 'Tokens', number(t.promptTokens + t.completionTokens), t.promptTokens + t.completionTokens],
    ['cost', 'Estimated cost', t.cost === null ? 'set LLM_PRICE_*' : dollars(t.cost), t.cost ?? ''],
    [
      'cached',
      'Cached prompt tokens',
      percent(t.promptTokens ? t.cachedTokens / t.promptTokens : null),
      t.cachedTokens,
    ],
    ['votes', 'Votes up / down', `${t.up} / ${t.down}`, `${t.up}/${t.down}`],
    ['duration', 'Duration p50 / p95', `${ms(t.p50)} / ${ms(t.p95)}`, `${t.p50 ?? ''}/${t.p95 ?? ''}`],
    ['refused', 'Refused / limited', `${t.refused} / ${t.limited}`, `${t.refused}/${t.limited}`],
  ];
  $('totals').replaceChildren(
    ...totals.map(([name, label, shown, value]) => {
      const box = el('div', undefined, { 'data-total': name, 'data-value': String(value) });
      box.append(el('dt', label), el('dd', shown));
      return box;
    }),
  );
  drawCharts(c);
  table(
    $('top-people'),
    ['Person', 'Questions', 'Tokens'],
    body.topPeople.map((p) => [p.name, number(p.questions), number(p.promptTokens + p.completionTokens)]),
  );
  table(
    $('top-channels'),
    ['Channel', 'Questions', 'Tokens'],
    body.topChannels.map((p) => [p.name, number(p.questions), number(p.promptTokens + p.completionTokens)]),
  );
  table(
    $('top-tools'),
    ['Tool', 'Calls'],
    body.tools.map((t) => [t.tool, number(t.calls)]),
  );
  table(
    $('failing-tools'),
    ['Tool', 'Failed', 'Of calls'],
    body.tools
      .filter((t) => t.failed > 0)
      .sort((a, b) => b.failed - a.failed)
      .map((t) => [t.tool, number(t.failed), number(t.calls)]),
  );
}

function table(node, headings, rows) {
  const head = el('thead');
  const tr = el('tr');
  for (const h of headings) tr.append(el('th', h, { scope: 'col' }));
  head.append(tr);
  const body = el('tbody');
  if (rows.length === 0) {
    const empty = el('tr');
    empty.append(el('td', 'None in this period.', { colspan: String(headings.length) }));
    body.append(empty);
  }
  for (const row of rows) {
    const line = el('tr');
    row.forEach((cell, i) => {
      line.append(el(i === 0 ? 'th' : 'td', cell, i === 0 ? { scope: 'row' } : {}));
    });
    body.append(line);
  }
  node.replaceChildren(head, body);
}

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

function drawCharts(c) {
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
      scales: { x: { time: true } },
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      axes: [
        {},
        {
          values: (_, ticks) => ticks.map((v) => spec.format(v)),
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

// Runs ---------------------------------------------------------------------------------------------------

let oldest;

$('run-search').addEventListener('submit', (event) => {
  event.preventDefault();
  void showRuns(false);
});
$('more-runs').addEventListener('click', () => void showRuns(true));

async function showRuns(more) {
  $('runs-note').textContent =
    runLogDays > 0
      ? `Each run's steps are kept for ${runLogDays} days (RUN_LOG_RETENTION_DAYS).`
      : 'Run logs are off (RUN_LOG_RETENTION_DAYS=0): runs are listed from their usage records, without their steps.';
  const query = filterQuery();
  query.set('days', '90');
  const q = $('q').value.trim();
  if (q) query.set('q', q);
  if ($('outcome').value) query.set('outcome', $('outcome').value);
  if (more && oldest) query.set('before', String(oldest));
  const { status: code, body } = await getJson(`/admin/api/runs?${query}`);
  if (code !== 200) throw new Error(body?.error ?? String(code));
  const tbody = $('run-list').querySelector('tbody');
  if (!more) tbody.replaceChildren();
  for (const run of body.runs) tbody.append(runRow(run));
  if (!more && body.runs.length === 0) {
    const empty = el('tr');
    empty.append(el('td', 'No runs match.', { colspan: '8' }));
    tbody.append(empty);
  }
  oldest = body.runs.at(-1)?.id ?? oldest;
  $('more-runs').hidden = !body.more;
}

function runRow(run) {
  const row = el('tr', undefined, { 'data-run': String(run.id), 'data-outcome': run.outcome });
  const when = el('th', undefined, { scope: 'row' });
  when.append(el('a', new Date(run.at).toLocaleString(), { href: `#run/${run.id}` }));
  row.append(
    when,
    el('td', run.key),
    el('td', run.userId ?? ''),
    el('td', run.outcome, { class: `outcome ${run.outcome}` }),
    el('td', number(run.promptTokens + run.completionTokens), {
      'data-tokens': String(run.promptTokens + run.completionTokens),
    }),
    el('td', ms(run.durationMs)),
    el('td', `${run.up} / ${run.down}`),
    el('td', run.question ?? '', { class: 'question' }),
  );
  return row;
}

// One run ------------------------------------------------------------------------------------------------

const LABELS = {
  thought: 'Thought',
  action: 'Action',
  observation: 'Observation',
  model: 'Model call',
  answer: 'Answer',
  notice: 'Notice',
  error: 'Error',
};

async function showRun(id) {
  const { status: code, body } = await getJson(`/admin/api/run?id=${encodeURIComponent(id ?? '')}`);
  if (code !== 200) throw new Error(body?.error ?? String(code));
  const run = body.run;
  $('run-title').textContent = `Run ${run.id}`;
  const meta = [
    ['When', new Date(run.at).toLocaleString()],
    ['Where', `${run.platform} · ${run.key}`],
    ['Who', run.userId ?? ''],
    ['Model', run.model],
    ['Outcome', run.outcome],
    [
      'Tokens',
      `${number(run.promptTokens)} prompt (${number(run.cachedTokens)} cached) + ${number(run.completionTokens)} completion`,
    ],
    ['Model calls', number(run.modelCalls)],
    ['Duration', ms(run.durationMs)],
    ['Votes up / down', `${run.up} / ${run.down}`],
  ];
  $('run-meta').replaceChildren(...meta.flatMap(([k, v]) => [el('dt', k), el('dd', v)]));
  const log = run.log;
  $('run-note').textContent = log
    ? ''
    : runLogDays > 0
      ? `This run's steps are not kept (older than ${runLogDays} days, or it never ran).`
      : 'Run logs are off (RUN_LOG_RETENTION_DAYS=0).';
  $('run-question').textContent = log?.question ?? '';
  $('run-answer').textContent = log?.answer ?? '';
  $('run-steps').replaceChildren(...(log?.steps ?? []).map(stepItem));
  showRunEvals(run, say);
  $('run-title').focus?.();
}

function stepItem(step) {
  const item = el('li', undefined, { class: `step ${step.kind}`, 'data-kind': step.kind });
  const head = el('p', undefined, { class: 'step-head' });
  head.append(el('strong', LABELS[step.kind] ?? step.kind), el('span', ` +${ms(step.at)}`, { class: 'at' }));
  if (step.kind === 'model') {
    head.append(
      el(
        'span',
        ` · ${ms(step.ms)} · ${number(step.promptTokens)} prompt (${number(step.cachedTokens)} cached) + ${number(step.completionTokens)} completion tokens`,
        {
          class: 'detail',
          'data-prompt': String(step.promptTokens),
          'data-completion': String(step.completionTokens),
        },
      ),
    );
  }
  if (step.kind === 'action') head.append(el('span', ` · ${step.tool}`, { class: 'detail' }));
  if (step.kind === 'observation') {
    head.append(
      el('span', ` · ${step.tool} · ${ms(step.ms)}${step.ok ? '' : ' · failed'}`, {
        class: step.ok ? 'detail' : 'detail failed',
      }),
    );
  }
  if (step.kind === 'notice' || step.kind === 'error')
    head.append(el('span', ` · ${step.code}`, { class: 'detail' }));
  item.append(head);
  const text = step.kind === 'action' ? step.input : step.text;
  if (text) item.append(el('pre', text, { class: 'text' }));
  return item;
}

// Settings -----------------------------------------------------------------------------------------------

async function showSettings() {
  const { status: code, body } = await getJson('/admin/api/settings');
  if (code !== 200) throw new Error(body?.error ?? String(code));
  const box = $('settings-body');
  box.replaceChildren();
  const section = (title, rows, headings) => {
    const part = el('section');
    part.append(el('h3', title));
    const t = el('table');
    table(t, headings, rows);
    part.append(t);
    box.append(part);
  };
  section(
    'Channels with their own settings',
    body.channels.map((c) => [
      c.key,
      Object.entries(c.settings)
        .map(([k, v]) => `${k}=${v}`)
        .join('; '),
    ]),
    ['Channel', 'Settings'],
  );
  section(
    'Tools and MCP servers',
    body.tools.map((g) => [g.name, g.kind, g.state, g.tools.join(', '), g.problem ?? '']),
    ['Source', 'Kind', 'State', 'Tools', 'Problem'],
  );
  section('Access', Object.entries(body.access), ['Setting', 'Value']);
  section('Limits', Object.entries(body.limits), ['Setting', 'Value']);
  section('Model', Object.entries(body.model), ['Setting', 'Value']);
  section('Operations', Object.entries(body.operations), ['Setting', 'Value']);
}

void start();
