// The admin page's evals: the pass rate per set and model over the kept `npm run eval` runs, the 👎 votes with
// a reason waiting to become cases (accept, with the expected answer written in, or dismiss), and the "Add to
// evals" form of a run. Every text from the store is set with textContent, never parsed as HTML.

const $ = (id) => document.getElementById(id);
const BARS = '▁▂▃▄▅▆▇█';

/** An element with `text` as its text (never HTML) and the given attributes. */
function el(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  return node;
}

const rate = (p) => (p.total === 0 ? 1 : p.passed / p.total);
const percent = (r) => `${(r * 100).toFixed(1)}%`;
const spark = (points) => points.map((p) => BARS[Math.min(7, Math.floor(rate(p) * 8))]).join('');
const lines = (text) =>
  text
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);

async function post(path, body) {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    body: res.status === 204 ? undefined : await res.json().catch(() => undefined),
  };
}

/** A labelled field of the case form. */
function field(form, label, input) {
  const wrap = el('label', label);
  wrap.append(input);
  form.append(wrap);
  return input;
}

/**
 * The form that makes run `usageId` a case: its set and id, what the answer must (not) contain, the tools it
 * must call, its most steps. `candidate` is the 👎 it answers; `done` runs once the case is written.
 */
export function caseForm({ usageId, tools = [], candidate, set = 'from-runs', sets = [] }, say, done) {
  const form = el('form', undefined, {
    class: 'filters eval-form',
    'aria-label': `Add run ${usageId} to evals`,
  });
  const list = el('datalist', undefined, { id: `eval-sets-${usageId}` });
  for (const name of sets) list.append(el('option', undefined, { value: name }));
  form.append(list);
  const setInput = field(
    form,
    'Set',
    el('input', undefined, { name: 'set', required: '', list: list.id, value: set }),
  );
  const idInput = field(form, 'Case id', el('input', undefined, { name: 'id', value: `run-${usageId}` }));
  const contains = field(
    form,
    'The answer must contain (one per line)',
    el('textarea', undefined, { name: 'contains', rows: '3' }),
  );
  const notContains = field(
    form,
    'It must not contain (one per line)',
    el('textarea', undefined, { name: 'notContains', rows: '2' }),
  );
  const calls = field(
    form,
    'Tools it must call (comma-separated)',
    el('input', undefined, { name: 'calls', value: tools.join(', ') }),
  );
  const maxSteps = field(
    form,
    'At most this many steps',
    el('input', undefined, { name: 'maxSteps', type: 'number', min: '1' }),
  );
  const submit = el('button', 'Add to evals', { type: 'submit' });
  form.append(submit);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const checks = {};
    if (lines(contains.value).length) checks.contains = lines(contains.value);
    if (lines(notContains.value).length) checks.notContains = lines(notContains.value);
    const called = calls.value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (called.length) checks.calls = called;
    if (maxSteps.value) checks.maxSteps = Number(maxSteps.value);
    submit.disabled = true;
    const { status, body } = await post('/admin/api/evals/cases', {
      usageId,
      set: setInput.value.trim(),
      id: idInput.value.trim(),
      checks,
      ...(candidate ? { candidate } : {}),
    });
    submit.disabled = false;
    if (status !== 201) return say(`Could not add the case: ${body?.error ?? status}`);
    say(`Added case ${body.id} to set ${body.set} (${body.file}).`);
    done?.();
  });
  return form;
}

/** The "Add to evals" part of a run's page, in #run-evals. */
export function showRunEvals(run, say) {
  const box = $('run-evals');
  if (!box) return;
  box.replaceChildren();
  if (!run.log?.question) return;
  const details = el('details');
  details.append(el('summary', 'Add to evals'));
  details.append(
    caseForm({ usageId: run.id, tools: Object.keys(run.tools ?? {}) }, say, () => (details.open = false)),
  );
  box.append(details);
}

function trendTable(trend) {
  if (trend.length === 0)
    return el('p', 'No eval runs kept yet: run npm run eval on this host.', { class: 'note' });
  const table = el('table', undefined, { id: 'eval-trend' });
  const head = table.createTHead().insertRow();
  for (const title of ['Set', 'Model', 'Protocol', 'Tools', 'Last run', 'Pass rate', 'Trend', 'Runs'])
    head.append(el('th', title, { scope: 'col' }));
  const rows = table.createTBody();
  for (const line of trend) {
    const last = line.points.at(-1);
    const row = rows.insertRow();
    row.dataset.set = line.set;
    for (const text of [
      line.set,
      line.model,
      line.protocol,
      line.recorded ? 'recorded' : 'live',
      new Date(last.at).toLocaleString(),
      `${percent(rate(last))} (${last.passed}/${last.total})`,
    ])
      row.insertCell().textContent = text;
    const cell = row.insertCell();
    cell.append(
      el('span', spark(line.points), { 'aria-label': line.points.map((p) => percent(rate(p))).join(', ') }),
    );
    row.insertCell().textContent = String(line.points.length);
  }
  return table;
}

function candidateItem(c, sets, say, refresh) {
  const item = el('li', undefined, { class: 'candidate', 'data-candidate': c.id });
  item.append(
    el('p', `👎 ${new Date(c.at).toLocaleString()} · ${c.key} · ${c.userId}`, { class: 'note' }),
    el('p', `Reason: ${c.comment}`),
  );
  if (c.question) item.append(el('h4', 'Question'), el('pre', c.question, { class: 'text' }));
  if (c.answer) item.append(el('h4', 'Answer given'), el('pre', c.answer, { class: 'text' }));
  const actions = el('p');
  const accept = el('button', 'Accept as a case', { type: 'button' });
  const dismiss = el('button', 'Dismiss', { type: 'button', class: 'secondary' });
  if (c.usageId === null) {
    accept.disabled = true;
    accept.title = 'The run this vote was about is not kept.';
  }
  accept.addEventListener('click', () => {
    accept.disabled = true;
    const form = caseForm({ usageId: c.usageId, candidate: c.id, set: 'from-feedback', sets }, say, refresh);
    item.append(form);
    form.querySelector('textarea')?.focus();
  });
  dismiss.addEventListener('click', async () => {
    dismiss.disabled = true;
    const { status, body } = await post('/admin/api/evals/dismiss', { candidate: c.id });
    if (status !== 204) {
      dismiss.disabled = false;
      return say(`Could not dismiss it: ${body?.error ?? status}`);
    }
    say('Dismissed.');
    await refresh();
  });
  actions.append(accept, ' ', dismiss);
  item.append(actions);
  return item;
}

/** Shows the Evals view in #evals-body; `say` reports progress and failures in the status line. */
export async function showEvals(say) {
  const res = await fetch('/admin/api/evals', { cache: 'no-store', headers: { accept: 'application/json' } });
  const body = await res.json().catch(() => undefined);
  if (res.status !== 200) throw new Error(body?.error ?? String(res.status));
  const refresh = () => showEvals(say);
  const box = $('evals-body');
  const list = el('ol', undefined, { class: 'candidates' });
  for (const c of body.candidates) list.append(candidateItem(c, body.sets, say, refresh));
  box.replaceChildren(
    el('h3', 'Pass rate per set and model'),
    trendTable(body.trend),
    el('h3', '👎 with a reason: candidate cases'),
    body.candidates.length > 0 ? list : el('p', 'No 👎 with a reason is waiting.', { class: 'note' }),
    el('p', `Cases added here are written to ${body.setsDir}, which npm run eval reads with evals/.`, {
      class: 'note',
    }),
  );
}
