// Getting into the chat (the token prompt or the sign-in button the server names, signing out) and staying
// connected to the stream of its events (server-sent events).

import { setFileLimit } from './chat-attach.js';
import {
  api,
  chat,
  chatsPanel,
  input,
  log,
  newChatButton,
  signInButton,
  signInError,
  signInPanel,
  signOutAllButton,
  signOutButton,
  status,
  tokenError,
  tokenForm,
  tokenInput,
  who,
} from './chat-dom.js';
import { loadChats } from './chat-history.js';
import {
  ENDED,
  setLive,
  showConversation,
  showRun,
  showRunAnswer,
  showRunApprovals,
  showStep,
} from './chat-log.js';

const RETRY_MS = 3000;

let events;
let retryTimer;

/** Follows the current chat's events, in place of any stream followed before. */
function connect() {
  clearTimeout(retryTimer);
  events?.close();
  events = new EventSource('/api/events');
  events.addEventListener('open', () => {
    status.textContent = '';
  });
  events.addEventListener('conversation', (e) => {
    showConversation(JSON.parse(e.data));
    loadChats();
  });
  events.addEventListener('run', (e) => {
    const run = JSON.parse(e.data);
    showRun(run);
    if (ENDED.has(run.phase)) loadChats();
  });
  events.addEventListener('step', (e) => {
    const { id, step } = JSON.parse(e.data);
    showStep(id, step);
  });
  events.addEventListener('approvals', (e) => {
    const { id, approvals } = JSON.parse(e.data);
    showRunApprovals(id, approvals);
  });
  events.addEventListener('answer', (e) => {
    const { id, phase, text } = JSON.parse(e.data);
    showRunAnswer(id, phase, text);
  });
  events.addEventListener('error', () => {
    status.textContent = 'Connection lost; reconnecting…';
    // The browser retries by itself unless the server refused; then we try again ourselves.
    if (events.readyState === EventSource.CLOSED) retryTimer = setTimeout(openChat, RETRY_MS);
  });
}

/** Shows the chat now current from its start, on a fresh stream. */
export function reconnect() {
  log.replaceChildren();
  setLive(undefined);
  connect();
}

/** Hides the chat and shows how to get in: the token prompt, or the sign-in button the server names. */
export function showGate(challenge) {
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

/** Says who is signed in (when someone is) and offers to sign out. */
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
export async function openChat() {
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
  setFileLimit(data?.files?.maxBytes);
  if (location.search) history.replaceState(null, '', location.pathname);
  connect();
  input.focus();
}
