import type { AgentEventHandler, RunResult } from '../agent/events.js';
import type { AskOutcome } from '../assistant.js';

/** The reply when a channel already has MAX_QUEUED_PER_CHANNEL questions waiting. */
export const BUSY_MESSAGE = 'Busy with earlier questions in this channel; try again shortly.';
/** Under an answer that could not be stored in the channel's memory. */
export const NOT_REMEMBERED_MESSAGE = 'This answer could not be saved to memory, so I will not remember it.';
/** The reply when the line of questions (shared by replicas) cannot be reached. */
export const STORAGE_UNAVAILABLE_MESSAGE = 'Storage is unavailable right now; try again shortly.';
/** The reply to questions arriving while the bot shuts down. */
export const CLOSING_MESSAGE = 'Shutting down; try again shortly.';
/** The reply to `/settings` from someone who is not an admin. */
export const SETTINGS_ADMINS_ONLY = 'Only admins can see or change this bot’s settings.';

/** A question not run because its channel's line is full (or the bot is closing): said, and returned. */
export function busy(onEvent: AgentEventHandler, message: string): AskOutcome {
  onEvent({ type: 'error', code: 'busy', message });
  return { status: 'busy', message };
}

/** A run cancelled before it answered: said, and returned. */
export function cancelled(onEvent: AgentEventHandler): RunResult {
  onEvent({ type: 'error', code: 'cancelled', message: 'Cancelled.' });
  return { status: 'cancelled' };
}

/** A run that failed: the channel gets a short sentence; details (paths, causes) go to the log. */
export function failed(onEvent: AgentEventHandler, code: 'storage' | 'internal', message: string): RunResult {
  onEvent({ type: 'error', code, message });
  return { status: 'failed', code, message };
}
