// The web chat page: asking (questions and commands), stopping an answer, starting a new chat. What it shows
// is in chat-log.js, getting in and the event stream in chat-session.js, the list of chats in chat-history.js.
import { api, form, input, log, newChatButton, sendButton, stopButton } from './chat-dom.js';
import { loadChats, mountChats } from './chat-history.js';
import { liveRun, showCommand, showNote } from './chat-log.js';
import { openChat, reconnect, showGate } from './chat-session.js';

/** Sends a question or command; resolves with whether the server took it. */
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
  reconnect();
  input.focus();
});

mountChats({ showGate, reconnect });
openChat();
