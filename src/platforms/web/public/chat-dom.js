// What every part of the chat page builds with: its elements, new elements whose text is set with
// textContent (never parsed as HTML), the API's JSON, and keeping the newest message in view.

/** The element with this id. */
export const $ = (id) => document.getElementById(id);
export const chat = $('chat');
export const log = $('log');
export const empty = $('empty');
export const form = $('ask-form');
export const input = $('question');
export const sendButton = $('send');
export const stopButton = $('stop');
export const attachButton = $('attach');
export const fileInput = $('file');
export const attachedPanel = $('attached');
export const attachedName = $('attached-name');
export const detachButton = $('detach');
export const status = $('status');
export const newChatButton = $('new-chat');
export const tokenForm = $('token-form');
export const tokenInput = $('token');
export const tokenError = $('token-error');
export const signInPanel = $('sign-in');
export const signInButton = $('sign-in-button');
export const signInError = $('sign-in-error');
export const who = $('who');
export const signOutButton = $('sign-out');
export const signOutAllButton = $('sign-out-everywhere');
export const chatsPanel = $('chats');
export const chatList = $('chat-list');

/** Calls the API; resolves with the status and the JSON body (null when there is none). */
export async function api(path, body) {
  const init =
    body === undefined
      ? {}
      : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  const res = await fetch(path, { ...init, credentials: 'same-origin', cache: 'no-store' });
  const data = res.status === 204 ? null : await res.json().catch(() => null);
  return { status: res.status, data };
}

/**
 * POSTs a form with a file (multipart/form-data); the header tells the server it comes from this page (a form
 * on another site cannot set it). Resolves with the status and the JSON body.
 */
export async function apiForm(path, form) {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'x-thinkthread-upload': '1' },
    body: form,
    credentials: 'same-origin',
    cache: 'no-store',
  });
  return { status: res.status, data: await res.json().catch(() => null) };
}

/** A new element with this class and text (set as text, never HTML). */
export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Keeps the newest message in view unless the reader has scrolled up. */
export function follow(update) {
  const atBottom = window.innerHeight + window.scrollY >= document.body.scrollHeight - 80;
  update();
  empty.hidden = log.children.length > 0;
  if (atBottom) window.scrollTo({ top: document.body.scrollHeight });
}
