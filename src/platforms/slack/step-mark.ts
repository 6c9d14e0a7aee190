import type { SlackMessage } from './limits.js';

/** The message metadata event type of the bot's step messages. */
export const STEP_EVENT = 'thinkthread_steps';

/** `message` marked as a steps message, so that reading the thread later can leave it out. */
export function markAsSteps(message: SlackMessage): SlackMessage {
  return { ...message, metadata: { event_type: STEP_EVENT, event_payload: {} } };
}

/** Whether a message read from Slack (with `include_all_metadata`) is one of the bot's steps messages. */
export function isStepsMessage(message: { metadata?: { event_type?: string } | undefined }): boolean {
  return message.metadata?.event_type === STEP_EVENT;
}
