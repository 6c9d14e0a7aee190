import type { types } from '@slack/bolt';
import { splitMessage } from '../shared/split-message.js';
import { markdownToMrkdwn } from './mrkdwn.js';

/** Slack's limit on the mrkdwn text of one section block. */
export const SECTION_CHARS = 3000;
/**
 * Section blocks per message. Slack allows 50 blocks and 40,000 characters, but a message of up to
 * 12,000 characters reads as one answer while longer ones are better cut into several.
 */
export const SECTIONS_PER_MESSAGE = 4;
/** Longest context line (the `/ask` question echoed above its answer). */
export const CONTEXT_CHARS = 500;

/** What one Slack message carries: blocks for display, `text` as the fallback for notifications and search. */
export interface SlackMessage {
  text: string;
  blocks: types.KnownBlock[];
  /** Marks the bot's own messages for later reading (e.g. steps, which thread context leaves out). */
  metadata?: { event_type: string; event_payload: Record<string, never> } | undefined;
}

/**
 * Markdown cut into section-sized mrkdwn pieces. The Markdown is split first (so links and emphasis are
 * converted whole), then any piece that escaping made too long is split again.
 */
export function markdownToSections(markdown: string): string[] {
  if (!markdown.trim()) return [];
  return splitMessage(markdown, SECTION_CHARS).flatMap((part) => {
    const mrkdwn = markdownToMrkdwn(part);
    return mrkdwn.length <= SECTION_CHARS ? [mrkdwn] : splitMessage(mrkdwn, SECTION_CHARS);
  });
}

/** Mrkdwn sections grouped into messages; `context` (already mrkdwn) heads the first one. */
export function sectionsToMessages(sections: readonly string[], context?: string): SlackMessage[] {
  const messages: SlackMessage[] = [];
  for (let i = 0; i < Math.max(sections.length, 1); i += SECTIONS_PER_MESSAGE) {
    messages.push(buildMessage(sections.slice(i, i + SECTIONS_PER_MESSAGE), i === 0 ? context : undefined));
  }
  return messages;
}

/** One message from mrkdwn sections (each at most SECTION_CHARS) and an optional context line. */
export function buildMessage(sections: readonly string[], context?: string): SlackMessage {
  const blocks: SlackMessage['blocks'] = [];
  if (context)
    blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: context, verbatim: true }] });
  for (const text of sections) {
    // Slack rejects empty text objects.
    if (text.trim()) blocks.push({ type: 'section', text: { type: 'mrkdwn', text, verbatim: true } });
  }
  if (blocks.length === 0)
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: ' ', verbatim: true } });
  const text = [context, ...sections].filter(Boolean).join('\n\n');
  return { text: text.trim() ? text : ' ', blocks };
}

/** Markdown as the messages it needs, in order; there is always at least one. */
export function markdownToMessages(markdown: string, context?: string): SlackMessage[] {
  return sectionsToMessages(markdownToSections(markdown), context);
}
