// The file going with the next question: chosen with Attach, dropped on the chat, or pasted into the message
// box. One file per question; one larger than the server reads is refused here, in a sentence, unsent.
import {
  attachButton,
  attachedName,
  attachedPanel,
  chat,
  detachButton,
  fileInput,
  input,
} from './chat-dom.js';
import { showNote } from './chat-log.js';

/** The largest file the server reads (it says so in /api/session); until then, no check here. */
let maxBytes = Number.POSITIVE_INFINITY;
let attached;

/** Sets the largest file the server reads. */
export function setFileLimit(bytes) {
  if (Number.isFinite(bytes) && bytes > 0) maxBytes = bytes;
}

/** The file going with the next question, if any. */
export function attachedFile() {
  return attached;
}

/** `512 bytes`, `1.2 KB`, `3.4 MB`, as the server writes sizes. */
function formatBytes(n) {
  if (n < 1000) return `${n} byte${n === 1 ? '' : 's'}`;
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)} KB`;
  return `${(n / 1_000_000).toFixed(1)} MB`;
}

/** The sentence of a file the server would refuse for its size. */
export function tooLarge(name) {
  return `${name} is too large: files over ${formatBytes(maxBytes)} are not read.`;
}

/** Makes `file` the one sent with the next question (or none); a question may then be empty. */
export function attach(file) {
  if (file && file.size > maxBytes) {
    showNote(tooLarge(file.name), 'error');
    file = undefined;
  }
  attached = file;
  attachedPanel.hidden = !file;
  attachedName.textContent = file ? file.name : '';
  input.required = !file;
  fileInput.value = '';
}

/** Attaches the one file of `files`; several are refused in a sentence. */
function attachOne(files) {
  if (files.length > 1) showNote('Attach one file at a time: each question takes one file.', 'error');
  else if (files.length === 1) attach(files[0]);
}

attachButton.addEventListener('click', () => fileInput.click());
fileInput.addEventListener('change', () => attachOne(fileInput.files));
detachButton.addEventListener('click', () => {
  attach(undefined);
  input.focus();
});

const carriesFiles = (e) => [...(e.dataTransfer?.types ?? [])].includes('Files');
chat.addEventListener('dragover', (e) => {
  if (!carriesFiles(e)) return;
  e.preventDefault();
  e.dataTransfer.dropEffect = 'copy';
  chat.classList.add('dropping');
});
chat.addEventListener('dragleave', (e) => {
  if (!chat.contains(e.relatedTarget)) chat.classList.remove('dropping');
});
chat.addEventListener('drop', (e) => {
  chat.classList.remove('dropping');
  if (!carriesFiles(e)) return;
  e.preventDefault();
  attachOne(e.dataTransfer.files);
  input.focus();
});

input.addEventListener('paste', (e) => {
  const files = e.clipboardData?.files;
  if (!files?.length) return;
  e.preventDefault();
  attachOne(files);
});
