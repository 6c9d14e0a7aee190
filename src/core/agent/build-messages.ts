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

/** What comes with the new message: thread context and files as text before it, and images. */
export interface MessageExtras {
  preface?: string | undefined;
  images?: readonly ContentPart[] | undefined;
}

/**
 * System prompt, running summary, recent turns verbatim, then the new message (after its thread context
 * and files, so that everything before it stays the same prefix from one question to the next).
 */
export function buildMessages(
  system: string,
  context: ConversationContext,
  author: string,
  message: string,
  extras: MessageExtras = {},
): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'system', content: system }];
  if (context.summary) {
    messages.push({ role: 'system', content: formatSummaryMessage(context.summary) });
  }
  for (const turn of context.turns) {
    messages.push({ role: 'user', content: formatUserMessage(turn.author, turn.question) });
    messages.push({ role: 'assistant', content: turn.answer });
  }
  const question = formatUserMessage(author, message);
  const text = extras.preface ? `${extras.preface}\n\n${question}` : question;
  messages.push({
    role: 'user',
    content: extras.images?.length ? [{ type: 'text', text }, ...extras.images] : text,
  });
  return messages;
}
