// The admin page: charts (uPlot, served by the bot), runs and their steps, the settings in force. Every text
// from the store (questions, answers, tool output, names) is set with textContent, never parsed as HTML.

import { drawCharts } from './admin-charts.js';
import { $, dollars, el, getJson, getOk, ms, number, percent, person, table } from './admin-dom.js';
import { showEvals, showRunEvals } from './admin-evals.js';
import { showKnowledge } from './admin-knowledge.js';
import { showRun } from './admin-run.js';
import { showSessions } from './admin-sessions.js';

const status = $('status');
const views = ['overview', 'runs', 'run', 'settings', 'sessions', 'evals', 'knowledge'];

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
    else if (shown === 'run') showRunEvals(await showRun(arg, runLogDays), say);
    else if (shown === 'sessions') await showSessions(say);
    else if (shown === 'evals') await showEvals(say);
    else if (shown === 'knowledge') await showKnowledge(say);
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
  const body = await getOk(`/admin/api/stats?${filterQuery()}`);
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
    body.topPeople.map((p) => [
      person(p.name, body.names),
      number(p.questions),
      number(p.promptTokens + p.completionTokens),
    ]),
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
  const body = await getOk(`/admin/api/runs?${query}`);
  const tbody = $('run-list').querySelector('tbody');
  if (!more) tbody.replaceChildren();
  for (const run of body.runs) tbody.append(runRow(run, body.names));
  if (!more && body.runs.length === 0) {
    const empty = el('tr');
    empty.append(el('td', 'No runs match.', { colspan: '8' }));
    tbody.append(empty);
  }
  oldest = body.runs.at(-1)?.id ?? oldest;
  $('more-runs').hidden = !body.more;
}

function runRow(run, names) {
  const row = el('tr', undefined, { 'data-run': String(run.id), 'data-outcome': run.outcome });
  const when = el('th', undefined, { scope: 'row' });
  when.append(el('a', new Date(run.at).toLocaleString(), { href: `#run/${run.id}` }));
  row.append(
    when,
    el('td', run.key),
    el('td', person(run.userId, names)),
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

// Settings -----------------------------------------------------------------------------------------------

async function showSettings() {
  const body = await getOk('/admin/api/settings');
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
