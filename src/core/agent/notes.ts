/** Ends a remembered answer that the model's length limit cut off, so later turns know it is incomplete. */
export const LENGTH_CUT_NOTE = '… [cut: the model stopped at its length limit]';

/** The answer as it should be remembered: with {@link LENGTH_CUT_NOTE} when it was cut. */
export function rememberedAnswer(text: string, truncated: boolean | undefined): string {
  return truncated ? `${text}${LENGTH_CUT_NOTE}` : text;
}

/** The failure when the length limit cut a reply that was no answer yet (a tool call, or nothing at all). */
export const LENGTH_CUT_FAILURE =
  'The model hit its length limit in the middle of its reply, so nothing from that reply was run. Please ask again, perhaps for something shorter.';
