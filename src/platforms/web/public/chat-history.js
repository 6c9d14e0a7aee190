// The visitor's conversations in the sidebar: open, rename and delete them.
import { api, chatList, chatsPanel, element, input } from './chat-dom.js';
import { showNote } from './chat-log.js';

/** What a change of chat leads to: the sign-in gate (when the server asks who this is), or a fresh stream. */
let after = { showGate: () => undefined, reconnect: () => undefined };

/** Says what to do when the server asks who this is (`showGate`) and when the current chat changed (`reconnect`). */
export function mountChats(actions) {
  after = actions;
}

/** Lists the visitor's conversations in the sidebar (only theirs: the server answers for the visitor). */
export async function loadChats() {
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
    after.showGate(data);
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
  after.reconnect();
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
    after.reconnect();
  } else {
    loadChats();
  }
  input.focus();
}
