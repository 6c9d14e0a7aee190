import { neutraliseBroadcasts, stripControls } from './mrkdwn.js';

/** Slack's limit on the `markdown_text` of one streamed message (and of the markdown blocks of one payload). */
export const MARKDOWN_CHARS = 12_000;
/**
 * Answer characters one natively streamed message takes before the rest continues in further messages;
 * below MARKDOWN_CHARS so that the zero-width spaces {@link safeMarkdown} adds always fit.
 */
export const NATIVE_MESSAGE_CHARS = 11_000;
/** Longest `title`, `details` or `output` of a task card. */
export const TASK_FIELD_CHARS = 256;
/** Longest fallback `text` of a `chat.update` (Slack rejects longer ones). */
export const UPDATE_TEXT_CHARS = 3000;

const ZWSP = '\u200B';

/**
 * Model Markdown made safe to stream: Slack renders it as Markdown, but `<!channel>`, `<@U…>` or
 * `<#C…>` would still notify or link, and a plain `@here` would broadcast; a zero-width space keeps
 * each one literal. Works character by character, so the pieces of a text split at whitespace come out
 * the same as the whole.
 */
export function safeMarkdown(text: string): string {
  return neutraliseBroadcasts(stripControls(text).replace(/<(?=[!@#])/g, `<${ZWSP}`));
}
