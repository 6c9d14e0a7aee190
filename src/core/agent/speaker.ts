/**
 * A turn is shown as `[author] text`. So that no one can pass as someone else, a name cannot hold brackets
 * or line breaks, and no line of the text can start with a bracket (nor, in a transcript, with the
 * assistant's label): such a line is escaped with a backslash, as Markdown would.
 */

/** The author's name as a header shows it: no brackets (they become parentheses), no control characters. */
export function speakerName(author: string): string {
  const name = author
    .replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g, ' ')
    .replace(/\[/g, '(')
    .replace(/\]/g, ')')
    .replace(/\s+/g, ' ')
    .trim();
  return name || 'someone';
}

const BRACKET_LINE = /^([ \t]*)(\[)/gm;

/** `text` with every line that starts with `[` (or with one of `labels`) escaped, so it cannot pass as a header. */
export function escapeHeaderLines(text: string, labels: readonly string[] = []): string {
  if (labels.length === 0) return text.includes('[') ? text.replace(BRACKET_LINE, '$1\\$2') : text;
  const led = labels.map((label) => `|${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`).join('');
  return text.replace(new RegExp(`^([ \\t]*)(\\[${led})`, 'gm'), '$1\\$2');
}
