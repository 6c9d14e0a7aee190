// Copy buttons: on each answer and on each code block of it (highlighted here too).
import { element, status } from './chat-dom.js';
import { highlight } from './highlight.js';

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

/** A button that copies what `text()` gives when pressed; `name` is what screen readers hear. */
export function copyButton(label, name, text) {
  const button = element('button', 'copy secondary', label);
  button.type = 'button';
  button.setAttribute('aria-label', name);
  button.addEventListener('click', () => copyText(text(), button, label));
  return button;
}

/** Highlights each code block of a rendered answer and gives it a Copy button. */
export function decorateCode(body) {
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
