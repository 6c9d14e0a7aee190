/**
 * A reply with no labels at all. The rule, in one sentence: unlabelled prose is the answer unless its first or
 * last sentence announces a step still to come ("I will…", "Let me…", "I can proceed to…") or it stops short
 * (mid-sentence, or on a bare step marker such as `Action 2`), and then it gets the format reminder instead.
 */
import { dropDanglingFence } from './section.js';

/** Opening words of a plan ("I will now search…", "Let me check…"): the model has not answered yet. */
const PLAN_RE =
  /^(?:(?:ok(?:ay)?|alright|sure|first|now|next|then)[,!.]?[ \t]{1,3})*(?:I will|I'll|I am going to|I'm going to|I need to|I should|I must|I have to|let me|let's|we need to|we should|we will|I'd like to)\b/i;

/** A last sentence that hands over to a next step ("Let's pull the thread.", "I can proceed to draft a reply."). */
const NEXT_STEP_RE =
  /^(?:(?:ok(?:ay)?|so|now|next|then|first)[,!.]?[ \t]{1,3})*(?:I will now|I'll now|I will (?:use|call|search|look|check|run|start|begin|proceed)|I'll (?:use|call|search|look|check|run|start|begin|proceed)|let me (?!know\b)|let's (?!hope\b)|I can (?:now )?proceed|I need to|I should (?:now )?(?:use|call|search|look|check|run|proceed|pull|draft|find)|now I (?:will|need|can)|next,? I)/i;

/** A last line that is only a step marker (`Action 2`, `Thought 3:`): the reply was cut before the step. */
const BARE_MARKER_RE =
  /^[ \t]*(?:\*\*)?(?:thought|action(?:[ \t]?input)?|observation)[ \t]{0,3}\d{0,3}[ \t]{0,3}(?:\*\*)?[:：]?[ \t]*$/i;

/** The last sentence of `s` (bounded: at most its last 300 characters). */
function lastSentence(s: string): string {
  const tail = s.slice(-300).replace(/[.!?。！？…]+["'”’)]*\s*$/, '');
  const cut = Math.max(
    tail.lastIndexOf('. '),
    tail.lastIndexOf('! '),
    tail.lastIndexOf('? '),
    tail.lastIndexOf('\n'),
  );
  return tail.slice(cut + 1).trim();
}

/** Characters a complete reply can end with. */
const END_CHARS = '.!?。！？…)]}"\'`*_>|:;~0123456789';

/** Whether trimmed prose announces a step still to come: a plan in its first or last sentence, or a bare step marker at its end. */
function announces(text: string): boolean {
  return (
    PLAN_RE.test(text.slice(0, 80)) ||
    BARE_MARKER_RE.test(text.slice(text.lastIndexOf('\n') + 1)) ||
    NEXT_STEP_RE.test(lastSentence(text))
  );
}

/** Whether prose announces a step still to come instead of answering (the first half of the rule above). */
export function announcesStep(body: string): boolean {
  const text = dropDanglingFence(body.trim());
  return text !== '' && announces(text);
}

/** The answer given as unlabelled prose, or undefined when the text is a plan, truncated, or empty. */
export function proseAnswer(body: string): string | undefined {
  const answer = dropDanglingFence(body.trim());
  if (!answer || announces(answer)) return undefined;
  const last = answer.at(-1)!;
  // Emoji and other symbols end a chat reply as well as punctuation does.
  const complete = END_CHARS.includes(last) || /[\p{Extended_Pictographic}\p{Lo}]/u.test(last);
  return complete ? answer : undefined;
}
