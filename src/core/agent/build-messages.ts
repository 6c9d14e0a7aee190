import type { ChatMessage, ContentPart } from '../llm/types.js';
import type { ConversationContext } from '../memory/types.js';
import { escapeHeaderLines, speakerName } from './speaker.js';

/** How a user's message is shown to the model: prefixed with the speaker, since channels have many. */
export function formatUserMessage(author: string, text: string): string {
  return `[${speakerName(author)}] ${escapeHeaderLines(text)}`;
}

/** How the running summary is shown to the model, as its own system message. */
export function formatSummaryMessage(summary: string): string {
  return `Summary of the earlier conversation:\n${summary}`;
}

/** How a channel's own instruction (`/settings prompt`) is shown to the model, as its own system message. */
export function formatChannelInstructions(instructions: string): string {
  return `Instructions for this channel, set by its admins:\n${instructions}`;
}

/** What comes beside the conversation: the channel's instructions, the new message's thread context and files, its images. */
export interface MessageExtras {
  instructions?: string | undefined;
  /** The conversation's notes (and the asker's), already formatted within NOTES_MAX_TOKENS. */
  notes?: string | undefined;
  preface?: string | undefined;
  images?: readonly ContentPart[] | undefined;
  /** The time now, as the asker's clock reads it: a line just before the new message, after the cached prefix. */
  now?: string | undefined;
}

/**
 * System prompt, the channel's instructions, the notes kept, running summary, recent turns verbatim, then the new message
 * (after the time now, its thread context and files). The instructions come right after the system prompt and the
 * per-question input after the history, so everything before the new message stays one stable, cacheable
 * prefix from one question to the next.
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
  if (extras.notes) messages.push({ role: 'system', content: extras.notes });
  if (context.summary) {
    messages.push({ role: 'system', content: formatSummaryMessage(context.summary) });
  }
  for (const turn of context.turns) {
    messages.push({ role: 'user', content: formatUserMessage(turn.author, turn.question) });
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
