// The web chat page: asking (questions and commands, with a file), stopping an answer, starting a new chat.
// What it shows is in chat-log.js, getting in and the event stream in chat-session.js, the list of chats in
// chat-history.js, the file going with the next question in chat-attach.js.
import { attach, attachedFile, tooLarge } from './chat-attach.js';
import { api, apiForm, form, input, log, newChatButton, sendButton, stopButton } from './chat-dom.js';
import { loadChats, mountChats } from './chat-history.js';
import { liveRun, showCommand, showNote } from './chat-log.js';
import { openChat, reconnect, showGate } from './chat-session.js';

/** Sends a question (with `file`, when one is attached) or a command; resolves with whether the server took it. */
async function send(text, file) {
  let result;
  try {
    if (file) {
      const body = new FormData();
      body.append('text', text);
      body.append('file', file, file.name);
      result = await apiForm('/api/ask', body);
    } else {
      result = await api('/api/ask', { text });
    }
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
  } else if (code === 413) {
    // The file cannot be sent at all; the question stays in the box, to send without it.
    showNote(data?.error ?? tooLarge(file?.name ?? 'The file'), 'error');
    attach(undefined);
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
  const file = attachedFile();
  if ((!text && !file) || liveRun) return;
  sendButton.disabled = true;
  const sent = await send(text, file);
  sendButton.disabled = liveRun !== undefined;
  if (sent) {
    input.value = '';
    attach(undefined);
  }
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
