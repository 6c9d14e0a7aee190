/** Ends a remembered answer that the model's length limit cut off, so later turns know it is incomplete. */
export const LENGTH_CUT_NOTE = '… [cut: the model stopped at its length limit]';

/** The answer as it should be remembered: with {@link LENGTH_CUT_NOTE} when it was cut. */
export function rememberedAnswer(text: string, truncated: boolean | undefined): string {
  return truncated ? `${text}${LENGTH_CUT_NOTE}` : text;
}
