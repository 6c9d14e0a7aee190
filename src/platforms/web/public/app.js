// The web chat page: renders the conversation the server streams (server-sent events) and sends
// questions and commands. Model text reaches the page only as escaped text or through renderMarkdown.
import { renderMarkdown } from './markdown.js';

const LABELS = { thought: 'Thought', action: 'Action', observation: 'Observation' };
const ENDED = new Set(['final', 'failed', 'cancelled']);
const RETRY_MS = 3000;

const $ = (id) => document.getElementById(id);
const chat = $('chat');
const log = $('log');
const empty = $('empty');
const form = $('ask-form');
const input = $('question');
const sendButton = $('send');
const stopButton = $('stop');
const status = $('status');
const newChatButton = $('new-chat');
const tokenForm = $('token-form');
const tokenInput = $('token');
const tokenError = $('token-error');
const signInPanel = $('sign-in');
const signInButton = $('sign-in-button');
const signInError = $('sign-in-error');
const who = $('who');
const signOutButton = $('sign-out');

/** The run being answered in this chat, if any. */
let liveRun;
let events;
let retryTimer;

/** Calls the API; resolves with the status and the JSON body (null when there is none). */
async function api(path, body) {
  const init =
    body === undefined
      ? {}
      : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  const res = await fetch(path, { ...init, credentials: 'same-origin', cache: 'no-store' });
  const data = res.status === 204 ? null : await res.json().catch(() => null);
  return { status: res.status, data };
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Keeps the newest message in view unless the reader has scrolled up. */
function follow(update) {
  const atBottom = window.innerHeight + window.scrollY >= document.body.scrollHeight - 80;
  update();
  empty.hidden = log.children.length > 0;
  if (atBottom) window.scrollTo({ top: document.body.scrollHeight });
}

function setLive(run) {
  liveRun = run && !ENDED.has(run.phase) ? run.id : undefined;
  stopButton.hidden = liveRun === undefined;
  sendButton.disabled = liveRun !== undefined;
}

function questionBlock(text) {
  const block = element('div', 'question');
  block.append(element('span', 'who', 'You'), element('p', 'text', text));
  return block;
}

function answerBlock() {
  const block = element('div', 'answer');
  block.append(element('span', 'who', 'thinkthread'), element('div', 'body markdown'), element('p', 'note'));
  return block;
}

function showAnswer(item, phase, text, note = '', problem = '') {
  const answer = item.querySelector('.answer');
  const body = answer.querySelector('.body');
  answer.dataset.phase = phase;
  if (problem) {
    body.replaceChildren(element('p', 'problem', problem));
  } else if (text) {
    // renderMarkdown escapes every character of the model's text before adding its own few tags.
    body.innerHTML = renderMarkdown(text);
  } else {
    body.replaceChildren(element('p', 'thinking', phase === 'final' ? '' : 'Thinking…'));
  }
  answer.querySelector('.note').textContent = note;
}

function stepItem(step) {
  const item = element('li', `step ${step.kind}${step.ok ? '' : ' failed'}`);
  // The line standing for the steps past the display limit, and notes, have no label of their own.
  if (step.kind === 'more' || step.kind === 'note') {
    item.append(element('span', 'text', step.text));
    return item;
  }
  item.append(
    element('span', 'label', `${LABELS[step.kind] ?? step.kind}:`),
    ' ',
    element('span', 'text', step.text),
  );
  return item;
}

function countSteps(details) {
  const n = details.querySelector('ol').children.length;
  details.querySelector('summary').textContent = `Reasoning: ${n} step${n === 1 ? '' : 's'}`;
  details.hidden = n === 0;
}

/** The list item of run `id`, created (empty) at the end of the log when new. */
function runItem(run) {
  let item = log.querySelector(`li[data-run="${CSS.escape(run.id)}"]`);
  if (item) return item;
  item = element('li', 'exchange');
  item.dataset.run = run.id;
  const details = element('details', 'steps');
  details.append(element('summary'), element('ol'));
  item.append(questionBlock(run.question), answerBlock(), details);
  log.append(item);
  return item;
}

/** Shows a whole run: its question, steps and answer; steps open while it is live, folded once it ended. */
function showRun(run) {
  follow(() => {
    const item = runItem(run);
    const details = item.querySelector('details');
    const wasLive = item.getAttribute('aria-busy') === 'true';
    details.querySelector('ol').replaceChildren(...run.steps.map(stepItem));
    countSteps(details);
    const ended = ENDED.has(run.phase);
    if (!ended) details.open = true;
    else if (wasLive || !item.dataset.shown) details.open = false;
    item.dataset.shown = 'yes';
    item.setAttribute('aria-busy', String(!ended));
    showAnswer(item, run.phase, run.answer, run.note, run.problem);
  });
  if (!ENDED.has(run.phase) || liveRun === run.id) setLive(run);
}

function showTurn(turn) {
  const item = element('li', 'exchange');
  item.append(questionBlock(turn.question), answerBlock());
  showAnswer(item, 'final', turn.answer);
  log.append(item);
}

function showNote(text, kind = 'note') {
  follow(() => {
    const item = element('li', kind);
    item.append(element('pre', '', text));
    log.append(item);
  });
}

function showConversation(snapshot) {
  follow(() => {
    log.replaceChildren();
    if (snapshot.summary) showNote(`Earlier in this chat, in short:\n${snapshot.summary}`, 'summary');
    for (const turn of snapshot.turns) showTurn(turn);
    if (snapshot.problem) showNote(snapshot.problem, 'error');
  });
  setLive(undefined);
  if (snapshot.run) showRun(snapshot.run);
}

function connect() {
  clearTimeout(retryTimer);
  events?.close();
  events = new EventSource('/api/events');
  events.addEventListener('open', () => {
    status.textContent = '';
  });
  events.addEventListener('conversation', (e) => showConversation(JSON.parse(e.data)));
  events.addEventListener('run', (e) => showRun(JSON.parse(e.data)));
  events.addEventListener('step', (e) => {
    const { id, step } = JSON.parse(e.data);
    const item = log.querySelector(`li[data-run="${CSS.escape(id)}"]`);
    if (!item) return;
    follow(() => {
      const details = item.querySelector('details');
      details.querySelector('ol').append(stepItem(step));
      countSteps(details);
    });
  });
  events.addEventListener('answer', (e) => {
    const { id, phase, text } = JSON.parse(e.data);
    const item = log.querySelector(`li[data-run="${CSS.escape(id)}"]`);
    if (item) follow(() => showAnswer(item, phase, text));
  });
  events.addEventListener('error', () => {
    status.textContent = 'Connection lost; reconnecting…';
    // The browser retries by itself unless the server refused; then we try again ourselves.
    if (events.readyState === EventSource.CLOSED) retryTimer = setTimeout(openChat, RETRY_MS);
  });
}

async function send(text) {
  let result;
  try {
    result = await api('/api/ask', { text });
  } catch {
    showNote('Could not reach the bot; check the connection and try again.', 'error');
    return false;
  }
  const { status: code, data } = result;
  if (code === 200) {
    if (data.cleared) log.replaceChildren();
    showNote(data.reply);
  } else if (code === 401) {
    showGate(data);
    return false;
  } else if (code !== 202) {
    showNote(data?.error ?? 'That did not work; try again.', 'error');
    return false;
  }
  return true;
}

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  const text = input.value.trim();
  if (!text || liveRun) return;
  sendButton.disabled = true;
  const sent = await send(text);
  sendButton.disabled = liveRun !== undefined;
  if (sent) input.value = '';
  input.focus();
});

input.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    form.requestSubmit();
  }
});

document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && liveRun) stopButton.click();
});

stopButton.addEventListener('click', async () => {
  stopButton.disabled = true;
  await api('/api/stop', {}).catch(() => undefined);
  stopButton.disabled = false;
  input.focus();
});

newChatButton.addEventListener('click', async () => {
  const { status: code, data } = await api('/api/new-chat', {});
  if (code === 401) return showGate(data);
  log.replaceChildren();
  setLive(undefined);
  connect();
  input.focus();
});

/** Hides the chat and shows how to get in: the token prompt, or the sign-in button the server names. */
function showGate(challenge) {
  events?.close();
  clearTimeout(retryTimer);
  chat.hidden = true;
  newChatButton.hidden = true;
  signOutButton.hidden = true;
  who.hidden = true;
  if (challenge?.signIn) {
    tokenForm.hidden = true;
    signInPanel.hidden = false;
    signInButton.textContent = challenge.label;
    signInButton.dataset.href = challenge.signIn;
    if (new URLSearchParams(location.search).get('sign-in') === 'failed') {
      signInError.textContent = 'Signing in did not work; try again.';
    }
    signInButton.focus();
  } else {
    signInPanel.hidden = true;
    tokenForm.hidden = false;
    tokenInput.focus();
  }
}

signInButton.addEventListener('click', () => {
  // A plain navigation: the sign-in page is another site's, so no form post and no fetch.
  location.assign(signInButton.dataset.href);
});

signOutButton.addEventListener('click', async () => {
  signOutButton.disabled = true;
  await api('/auth/sign-out', {}).catch(() => undefined);
  signOutButton.disabled = false;
  log.replaceChildren();
  openChat();
});

function showSignedIn(session) {
  const name = session?.user?.name;
  who.hidden = !name;
  who.textContent = name ? `Signed in as ${name}` : '';
  signOutButton.hidden = !name;
}

tokenForm.addEventListener('submit', async (e) => {
  e.preventDefault();
  const { status: code, data } = await api('/api/login', { token: tokenInput.value });
  if (code !== 204) {
    // 429: too many wrong tokens from here; the server says how long to wait.
    tokenError.textContent = code === 429 ? data?.error : 'That token is not right.';
    tokenInput.select();
    return;
  }
  tokenInput.value = '';
  tokenError.textContent = '';
  openChat();
});

/** Opens the chat, or the token prompt when the server asks for one. */
async function openChat() {
  let code;
  let data;
  try {
    ({ status: code, data } = await api('/api/session'));
  } catch {
    status.textContent = 'Cannot reach the bot; retrying…';
    retryTimer = setTimeout(openChat, RETRY_MS);
    return;
  }
  if (code === 401) return showGate(data);
  if (code !== 200) {
    status.textContent = 'The bot is not ready; retrying…';
    retryTimer = setTimeout(openChat, RETRY_MS);
    return;
  }
  tokenForm.hidden = true;
  signInPanel.hidden = true;
  chat.hidden = false;
  newChatButton.hidden = false;
  showSignedIn(data);
  if (location.search) history.replaceState(null, '', location.pathname);
  connect();
  input.focus();
}

openChat();
