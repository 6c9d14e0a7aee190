import type { ChatMessage } from '../llm/types.js';
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

/**
 * System prompt, the channel's instructions, running summary, recent turns verbatim, then the new message.
 * The instructions come right after the system prompt, so both stay one stable, cacheable prefix.
 */
export function buildMessages(
  system: string,
  context: ConversationContext,
  author: string,
  message: string,
  instructions?: string,
): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'system', content: system }];
  if (instructions) messages.push({ role: 'system', content: formatChannelInstructions(instructions) });
  if (context.summary) {
    messages.push({ role: 'system', content: formatSummaryMessage(context.summary) });
  }
  for (const turn of context.turns) {
    messages.push({ role: 'user', content: formatUserMessage(turn.author, turn.question) });
    messages.push({ role: 'assistant', content: turn.answer });
  }
  messages.push({ role: 'user', content: formatUserMessage(author, message) });
  return messages;
}
