// The web chat page: renders the conversation the server streams (server-sent events) and sends
// questions and commands. Model text reaches the page only as escaped text or through renderMarkdown.
import { highlight } from './highlight.js';
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
const signOutAllButton = $('sign-out-everywhere');
const chatsPanel = $('chats');
const chatList = $('chat-list');

/** The markdown each answer element shows (what its Copy button copies). */
const answerTexts = new WeakMap();

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
  const copy = copyButton('Copy', 'Copy the answer', () => answerTexts.get(block) ?? '');
  copy.classList.add('copy-answer');
  copy.hidden = true;
  block.append(
    element('span', 'who', 'thinkthread'),
    copy,
    element('div', 'body markdown'),
    element('p', 'note'),
  );
  return block;
}

/** Copies `text` to the clipboard and says so (in the button and to screen readers). */
async function copyText(text, button, label) {
  let said;
  try {
    await navigator.clipboard.writeText(text);
    said = 'Copied';
  } catch {
    said = 'Copy failed';
  }
  button.textContent = said;
  status.textContent =
    said === 'Copied' ? 'Copied to the clipboard.' : 'Could not copy; select the text instead.';
  setTimeout(() => {
    button.textContent = label;
  }, 1500);
}

function copyButton(label, name, text) {
  const button = element('button', 'copy secondary', label);
  button.type = 'button';
  button.setAttribute('aria-label', name);
  button.addEventListener('click', () => copyText(text(), button, label));
  return button;
}

/** Highlights each code block of a rendered answer and gives it a Copy button. */
function decorateCode(body) {
  for (const pre of body.querySelectorAll('pre')) {
    const code = pre.querySelector('code');
    if (!code) continue;
    if (pre.dataset.lang) highlight(code, pre.dataset.lang);
    const wrap = element('div', 'code-block');
    pre.replaceWith(wrap);
    const name = pre.dataset.lang ? `Copy the ${pre.dataset.lang} code` : 'Copy the code';
    wrap.append(
      copyButton('Copy', name, () => code.textContent ?? ''),
      pre,
    );
  }
}

function showAnswer(item, phase, text, note = '', problem = '') {
  const answer = item.querySelector('.answer');
  const body = answer.querySelector('.body');
  answer.dataset.phase = phase;
  answerTexts.set(answer, text);
  answer.querySelector('.copy-answer').hidden = !(phase === 'final' && text && !problem);
  if (problem) {
    body.replaceChildren(element('p', 'problem', problem));
  } else if (text) {
    // renderMarkdown escapes every character of the model's text before adding its own few tags; the
    // highlighter then only rearranges the code's text into spans (textContent, never HTML).
    body.innerHTML = renderMarkdown(text);
    if (phase === 'final') decorateCode(body);
  } else {
    const placeholder = item.dataset.waiting || 'Thinking…';
    body.replaceChildren(element('p', 'thinking', phase === 'final' ? '' : placeholder));
  }
  answer.querySelector('.note').textContent = note;
}

/** A tool call waiting for a person: its tool and exact arguments, a reason field, Approve and Deny. */
function approvalSection(approval) {
  const section = element('section', 'approval');
  section.dataset.approval = approval.id;
  section.setAttribute('aria-label', `Approval needed: ${approval.tool}`);
  const title = element('p', 'approval-title');
  title.append('Approve this call of ', element('code', '', approval.tool), '?');
  // The model's arguments, as text (never HTML); a long text scrolls, and Tab reaches it.
  const args = element('pre', 'approval-args', approval.args);
  args.tabIndex = 0;
  args.setAttribute('aria-label', `Arguments of ${approval.tool}`);
  const label = element('label', 'approval-reason', 'Reason (optional, sent with Deny) ');
  const reason = element('input');
  reason.type = 'text';
  reason.maxLength = 1000;
  label.append(reason);
  const approve = element('button', 'approve', 'Approve');
  approve.type = 'button';
  const deny = element('button', 'deny secondary', 'Deny');
  deny.type = 'button';
  const said = element('p', 'approval-said');
  said.setAttribute('role', 'status');
  const press = async (yes) => {
    approve.disabled = true;
    deny.disabled = true;
    const body = yes ? { id: approval.id, approve: true } : { id: approval.id, approve: false };
    if (!yes && reason.value.trim()) body.reason = reason.value.trim();
    let result;
    try {
      result = await api('/api/approve', body);
    } catch {
      result = { status: 0, data: null };
    }
    const { status: code, data } = result;
    if (code === 200 && (data.status === 'approved' || data.status === 'denied')) {
      said.textContent = data.status === 'approved' ? 'Approved.' : 'Denied.';
      return;
    }
    said.textContent = data?.message ?? data?.error ?? 'That did not work; try again.';
    approve.disabled = data?.status === 'expired';
    deny.disabled = data?.status === 'expired';
  };
  approve.addEventListener('click', () => press(true));
  deny.addEventListener('click', () => press(false));
  // Enter in the reason field denies: the reason goes with Deny.
  reason.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.isComposing) {
      e.preventDefault();
      deny.click();
    }
  });
  const buttons = element('div', 'approval-buttons');
  buttons.append(approve, deny);
  section.append(title, args, label, buttons, said);
  return section;
}

/** What the header said when a call last started to wait. */
let approvalStatus = '';

/** Shows the calls of a run waiting for Approve or Deny under its answer, and says so in the placeholder. */
function showApprovals(item, approvals) {
  let box = item.querySelector('.approvals');
  if (!box) {
    box = element('div', 'approvals');
    item.querySelector('.answer').after(box);
  }
  const waiting = new Set(approvals.map((a) => a.id));
  for (const section of [...box.children]) {
    if (!waiting.has(section.dataset.approval)) section.remove();
  }
  for (const approval of approvals) {
    if (box.querySelector(`[data-approval="${CSS.escape(approval.id)}"]`)) continue;
    box.append(approvalSection(approval));
    approvalStatus = `A tool call needs approval: ${approval.tool}.`;
    status.textContent = approvalStatus;
  }
  box.hidden = approvals.length === 0;
  // Once nothing on the page waits, the header stops saying something does.
  if (!log.querySelector('section.approval') && status.textContent === approvalStatus)
    status.textContent = '';
  item.dataset.waiting = approvals[0]?.waiting ?? '';
  const thinking = item.querySelector('.answer .body .thinking');
  if (thinking && item.querySelector('.answer').dataset.phase !== 'final') {
    thinking.textContent = item.dataset.waiting || 'Thinking…';
  }
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
    // An ended run carries approvals only when they were kept through a restart: they still decide.
    showApprovals(item, run.approvals ?? []);
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

/** A command as sent (`/memory`, …) with its reply, so the log shows what was asked. */
function showCommand(text, reply) {
  follow(() => {
    const item = element('li', 'note command');
    item.append(questionBlock(text), element('pre', '', reply));
    log.append(item);
  });
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
  for (const run of snapshot.runs ?? []) showRun(run);
  if (snapshot.run) showRun(snapshot.run);
  loadChats();
}

/** Lists the visitor's conversations in the sidebar (only theirs: the server answers for the visitor). */
async function loadChats() {
  let result;
  try {
    result = await api('/api/chats');
  } catch {
    return;
  }
  if (result.status !== 200 || !result.data?.kept) {
    chatsPanel.hidden = true;
    return;
  }
  const { chats, current } = result.data;
  chatsPanel.hidden = false;
  chatList.replaceChildren(
    ...chats.map((c) => {
      const item = element('li', 'chat-item');
      item.dataset.chat = c.id;
      const open = element('button', 'open-chat', c.title);
      open.type = 'button';
      if (c.id === current) open.setAttribute('aria-current', 'page');
      open.addEventListener('click', () => openConversation(c.id));
      const rename = element('button', 'secondary small', 'Rename');
      rename.type = 'button';
      rename.setAttribute('aria-label', `Rename “${c.title}”`);
      rename.addEventListener('click', () => renameConversation(c));
      const remove = element('button', 'secondary small danger', 'Delete');
      remove.type = 'button';
      remove.setAttribute('aria-label', `Delete “${c.title}”`);
      remove.addEventListener('click', () => deleteConversation(c, c.id === current));
      item.append(open, rename, remove);
      return item;
    }),
  );
  if (chats.length === 0) chatList.append(element('li', 'muted', 'Your chats appear here.'));
}

async function chatChange(path, body) {
  const { status: code, data } = await api(path, body).catch(() => ({ status: 0, data: null }));
  if (code === 401) {
    showGate(data);
    return false;
  }
  if (code !== 204) {
    showNote(data?.error ?? 'That did not work; try again.', 'error');
    return false;
  }
  return true;
}

async function openConversation(id) {
  if (!(await chatChange('/api/chats/open', { id }))) return;
  log.replaceChildren();
  setLive(undefined);
  connect();
  input.focus();
}

async function renameConversation(chat) {
  const title = window.prompt('New name of this chat', chat.title);
  if (!title?.trim()) return;
  if (await chatChange('/api/chats/rename', { id: chat.id, title })) loadChats();
}

async function deleteConversation(chat, current) {
  if (!window.confirm(`Delete “${chat.title}” with its answers and their reasoning? This cannot be undone.`))
    return;
  if (!(await chatChange('/api/chats/delete', { id: chat.id }))) return;
  if (current) {
    log.replaceChildren();
    setLive(undefined);
    connect();
  } else {
    loadChats();
  }
  input.focus();
}

function connect() {
  clearTimeout(retryTimer);
  events?.close();
  events = new EventSource('/api/events');
  events.addEventListener('open', () => {
    status.textContent = '';
  });
  events.addEventListener('conversation', (e) => showConversation(JSON.parse(e.data)));
  events.addEventListener('run', (e) => {
    const run = JSON.parse(e.data);
    showRun(run);
    if (ENDED.has(run.phase)) loadChats();
  });
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
  events.addEventListener('approvals', (e) => {
    const { id, approvals } = JSON.parse(e.data);
    const item = log.querySelector(`li[data-run="${CSS.escape(id)}"]`);
    if (item) follow(() => showApprovals(item, approvals));
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
    showCommand(text, data.reply);
    loadChats();
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
  chatsPanel.hidden = true;
  newChatButton.hidden = true;
  signOutButton.hidden = true;
  signOutAllButton.hidden = true;
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

/** Sign out here (`/auth/sign-out`), or in every browser (`/auth/sign-out-everywhere`). */
const signOut = (button, path) =>
  button.addEventListener('click', async () => {
    button.disabled = true;
    await api(path, {}).catch(() => undefined);
    button.disabled = false;
    log.replaceChildren();
    openChat();
  });
signOut(signOutButton, '/auth/sign-out');
signOut(signOutAllButton, '/auth/sign-out-everywhere');

function showSignedIn(session) {
  const name = session?.user?.name;
  who.hidden = !name;
  who.textContent = name ? `Signed in as ${name}` : '';
  signOutButton.hidden = !name;
  signOutAllButton.hidden = !name;
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
