import type { ChatMessage, ContentPart } from '../llm/types.js';
import type { ConversationContext } from '../memory/types.js';
import { type Provenance, quote } from '../util/untrusted.js';
import { escapeHeaderLines, speakerName } from './speaker.js';

/** How the asker's own message is shown to the model: prefixed with the speaker, since channels have many. */
export function formatUserMessage(author: string, text: string): string {
  return `[${speakerName(author)}] ${escapeHeaderLines(text)}`;
}

/**
 * How an earlier turn's question is shown: quoted history with its speaker, since whoever asked it then
 * (perhaps someone else in the channel) is not the asker now.
 */
export function formatHistoryMessage(author: string, text: string): string {
  return quote('history', escapeHeaderLines(text), { author: speakerName(author) });
}

/** How the running summary is shown: quoted history (it retells what other people said). */
export function formatSummaryMessage(summary: string): string {
  return `Summary of the earlier conversation:\n${quote('history', summary)}`;
}

/** How a channel's own instruction (`/settings prompt`) is shown to the model, as its own system message. */
export function formatChannelInstructions(instructions: string): string {
  return `Instructions for this channel, set by its admins:\n${instructions}`;
}

/** The notes of a conversation: admins' are instructions (system), everyone else's quoted data (user). */
export interface PromptNotes {
  instructions?: string | undefined;
  quoted?: string | undefined;
  /** Who wrote the quoted ones, for the reasoning thread. */
  provenance?: Provenance[] | undefined;
}

/** What comes beside the conversation: the channel's instructions, the new message's thread context and files, its images. */
export interface MessageExtras {
  instructions?: string | undefined;
  /** The conversation's notes (and the asker's), already formatted within NOTES_MAX_TOKENS. */
  notes?: PromptNotes | undefined;
  /** The thread's earlier messages and the files, already quoted (see input/prepare-input.ts). */
  preface?: string | undefined;
  images?: readonly ContentPart[] | undefined;
  /** The time now, as the asker's clock reads it: a line just before the new message, after the cached prefix. */
  now?: string | undefined;
}

/**
 * System prompt, the channel's instructions and admins' notes (the only instructions), other people's notes
 * (quoted), the running summary and recent turns (quoted history), then the new message (after the time
 * now, its quoted thread context and files; the asker's own words outside every block). The instructions
 * come first and the per-question input last, so everything before the new message stays one stable,
 * cacheable prefix from one question to the next.
 */
export function buildMessages(
  system: string,
  context: ConversationContext,
  author: string,
  message: string,
  extras: MessageExtras = {},
): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'system', content: system }];
  if (extras.instructions) {
    messages.push({ role: 'system', content: formatChannelInstructions(extras.instructions) });
  }
  // Notes change rarely, so they stay in the stable prefix, before the summary and the turns.
  if (extras.notes?.instructions) messages.push({ role: 'system', content: extras.notes.instructions });
  if (extras.notes?.quoted) messages.push({ role: 'user', content: extras.notes.quoted });
  if (context.summary) {
    messages.push({ role: 'user', content: formatSummaryMessage(context.summary) });
  }
  for (const turn of context.turns) {
    messages.push({ role: 'user', content: formatHistoryMessage(turn.author, turn.question) });
    messages.push({ role: 'assistant', content: turn.answer });
  }
  if (extras.now) messages.push({ role: 'system', content: extras.now });
  const question = formatUserMessage(author, message);
  const text = extras.preface ? `${extras.preface}\n\n${question}` : question;
  messages.push({
    role: 'user',
    content: extras.images?.length ? [{ type: 'text', text }, ...extras.images] : text,
  });
  return messages;
}
