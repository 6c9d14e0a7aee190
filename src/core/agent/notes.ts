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

/** The failure when the length limit cut a reply that was no answer yet (a tool call, or nothing at all). */
export const LENGTH_CUT_FAILURE =
  'The model hit its length limit in the middle of its reply, so nothing from that reply was run. Please ask again, perhaps for something shorter.';
