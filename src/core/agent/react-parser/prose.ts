/**
 * A reply with no labels. The rule: unlabelled prose is the answer when it ends as a sentence does (closing
 * punctuation in any script, a closing bracket or quote, an emoji) and announces no step still to come.
 * (A list's last item needs none.) It announces a step when its first sentence opens with a plan ("I will…", "Let me…"), its last sentence
 * hands over to one ("I can proceed to…"), or it narrates what it will do: two or more sentences of intention
 * ("I will proceed by calculating X. To do this, I will extract…"), or one among its last two once tool
 * results have come in; or when it stops short, on a bare step marker (`Action 2`) or mid-sentence in any
 * language (see ./cut.ts). A step announced is never delivered; unpunctuated prose that announces none
 * ("Paris has about 2.1 million inhabitants") gets the reminder but is the answer at the last step.
 */
import { endsClosed, endsComplete } from './cut.js';
import { announcement } from './intent.js';
import { dropDanglingFence } from './section.js';

/** What the parser knows of the run around a reply. */
export interface ReplyContext {
  /** Tool results have come in earlier in this run: narration of a next step is then a plan, not an answer. */
  afterResults?: boolean;
}

/** A last line that is only a step marker (`Action 2`, `Thought 3:`): the reply was cut before the step. */
const BARE_MARKER_RE =
  /^[ \t]*(?:\*\*)?(?:thought|action(?:[ \t]?input)?|observation)[ \t]{0,3}\d{0,3}[ \t]{0,3}(?:\*\*)?[:：]?[ \t]*$/i;

/** Sentences of narration that make a reply a plan even before any tool result. */
const NARRATION_SENTENCES = 2;

/** Whether trimmed prose plans a step still to come: a plan, a hand-over, narration, a bare step marker. */
function plans(text: string, context: ReplyContext): boolean {
  if (BARE_MARKER_RE.test(text.slice(text.lastIndexOf('\n') + 1))) return true;
  const a = announcement(text);
  return (
    a.opensWithPlan ||
    a.handsOver ||
    a.intents >= NARRATION_SENTENCES ||
    (context.afterResults === true && a.endsWithIntent)
  );
}

/** Whether prose plans a step still to come instead of answering (a cut in it aside). */
export function plansStep(body: string, context: ReplyContext = {}): boolean {
  const text = dropDanglingFence(body.trim());
  return text !== '' && plans(text, context);
}

/** Whether prose plans a step still to come or stops mid-sentence: either way it is no answer. */
export function announcesStep(body: string, context: ReplyContext = {}): boolean {
  const text = dropDanglingFence(body.trim());
  return text !== '' && (plans(text, context) || !endsComplete(text));
}

/** The answer given as unlabelled prose, or undefined when the text is a plan, cut short, unended or empty. */
export function proseAnswer(body: string, context: ReplyContext = {}): string | undefined {
  const answer = dropDanglingFence(body.trim());
  if (!answer || plans(answer, context) || !endsComplete(answer)) return undefined;
  return endsClosed(answer, true) ? answer : undefined;
}
