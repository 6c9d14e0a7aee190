import type { AnswerCut } from './events.js';

/** Ends a remembered answer that the model's length limit cut off, so later turns know it is incomplete. */
export const LENGTH_CUT_NOTE = '… [cut: the model stopped at its length limit]';

/** Ends a remembered answer that ANSWER_MAX_CHARS cut off. */
export const MAX_CHARS_CUT_NOTE = '… [cut: the answer was longer than this bot keeps]';

/** The answer as it should be remembered: with the note saying why, when it was cut. */
export function rememberedAnswer(text: string, truncated: AnswerCut | undefined): string {
  if (truncated === 'length') return `${text}${LENGTH_CUT_NOTE}`;
  if (truncated === 'max_chars') return `${text}${MAX_CHARS_CUT_NOTE}`;
  return text;
}

/**
 * The failure when the length limit cut a reply that was no answer yet (a tool call, prose that may be a plan,
 * or nothing at all) and the one retry was cut too, or there was no step left for it.
 */
export const LENGTH_CUT_FAILURE =
  'The model hit its length limit in the middle of its reply, so none of it was used. Please ask again, perhaps for something shorter.';

/** Sent to the model for the one retry after such a cut reply (native tool calling; the text protocol adds its format). */
export const LENGTH_RETRY =
  'Your last reply was cut off at the length limit before it was finished, so none of it was used. Reply again, more briefly: less reasoning, and a shorter tool input or answer.';

/** The reason the text protocol's format reminder gives for the retry after a cut reply. */
export const LENGTH_RETRY_REASON =
  'it was cut off at the length limit before it was finished; keep this one shorter';
