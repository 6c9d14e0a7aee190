import type { ContextMessage } from '../../core/input/types.js';
import { questionFromSlack } from './slack-text.js';

/**
 * The fields of a message attachment that says it shares another message: `is_share` on a share, and
 * `is_msg_unfurl` on a message link unfurled (`MessageAttachment` in @slack/web-api 8.2's response types:
 * `is_msg_unfurl`, `author_name`, `text`, `fallback`, `ts`, `from_url`).
 */
export interface SlackAttachment {
  is_share?: boolean | undefined;
  is_msg_unfurl?: boolean | undefined;
  author_name?: string | undefined;
  author_subname?: string | undefined;
  text?: string | undefined;
  fallback?: string | undefined;
  ts?: string | undefined;
}

/**
 * The messages a Slack message shares (a shared or forwarded message, a message link unfurled), each as a
 * quoted message from someone other than the asker: source `forwarded`, never an instruction. A link preview
 * of a web page (neither flag) is not one.
 */
export function sharedMessages(attachments: readonly SlackAttachment[] | undefined): ContextMessage[] {
  return (attachments ?? [])
    .filter((a) => a.is_share === true || a.is_msg_unfurl === true)
    .map((a) => ({
      author: a.author_name ?? a.author_subname ?? '',
      at: a.ts && Number.isFinite(Number(a.ts)) ? new Date(Number(a.ts) * 1000) : new Date(),
      text: questionFromSlack(a.text || a.fallback || '') || '(nothing readable)',
      source: 'forwarded' as const,
    }));
}
