/**
 * A reply with no labels at all: prose that answers or replies to the user is the answer; prose that only
 * narrates what the model is about to do, or stops mid-sentence, is not.
 */
import { dropDanglingFence } from './section.js';

/** Opening words of a plan ("I will now search…", "Let me check…"): the model has not answered yet. */
const PLAN_RE =
  /^(?:(?:ok(?:ay)?|alright|sure|first|now|next|then)[,!.]?[ \t]{1,3})*(?:I will|I'll|I am going to|I'm going to|I need to|I should|I must|I have to|let me|let's|we need to|we should|we will|I'd like to)\b/i;

/** Characters a complete reply can end with. */
const END_CHARS = '.!?。！？…)]}"\'`*_>|:;~0123456789';

/** The answer given as unlabelled prose, or undefined when the text is a plan, truncated, or empty. */
export function proseAnswer(body: string): string | undefined {
  const answer = dropDanglingFence(body.trim());
  if (!answer) return undefined;
  if (PLAN_RE.test(answer.slice(0, 80))) return undefined;
  const last = answer.at(-1)!;
  // Emoji and other symbols end a chat reply as well as punctuation does.
  const complete = END_CHARS.includes(last) || /[\p{Extended_Pictographic}\p{Lo}]/u.test(last);
  return complete ? answer : undefined;
}
