/**
 * Sentences that announce what the model will do rather than say what is so: "I will now search…", "Let me
 * check…", "To do this, I will extract the values…". Every regex runs on one bounded sentence.
 */

/** Opening words of a plan ("I will now search…", "Let me check…"): the model has not answered yet. */
const PLAN_RE =
  /^(?:(?:ok(?:ay)?|alright|sure|first|now|next|then)[,!.]?[ \t]{1,3})*(?:I will|I'll|I am going to|I'm going to|I need to|I should|I must|I have to|let me|let's|we need to|we should|we will|I'd like to)\b/i;

/** A last sentence that hands over to a next step ("Let's pull the thread.", "I can proceed to draft a reply."). */
const NEXT_STEP_RE =
  /^(?:(?:ok(?:ay)?|so|now|next|then|first)[,!.]?[ \t]{1,3})*(?:I will now|I'll now|I will (?:use|call|search|look|check|run|start|begin|proceed)|I'll (?:use|call|search|look|check|run|start|begin|proceed)|let me (?!know\b)|let's (?!hope\b)|I can (?:now )?proceed|I need to|I should (?:now )?(?:use|call|search|look|check|run|proceed|pull|draft|find)|now I (?:will|need|can)|next,? I)/i;

/**
 * A sentence stating a first-person intention to act, possibly after an opening phrase ("To do this, I will
 * extract…", "Next, I'll compare…"); promises of courtesy ("I will be glad to…", "let me know") are not.
 */
const INTENT_RE =
  /^(?:[^,.;:!?]{1,60},[ \t]{0,3})?(?:(?:so|now|next|then|first|finally|after that)[, \t]{1,3})?(?:I will|I'll|I am going to|I'm going to|I need to|I have to|I must|I'd like to|let me|let's|we will|we'll|we need to|I can now|now I)[ \t]{1,3}(?:now[ \t]{1,3}|first[ \t]{1,3}|then[ \t]{1,3}|also[ \t]{1,3})?(?!be\b|help\b|gladly\b|happily\b|know\b|hope\b|always\b|never\b|try my best\b)\p{L}/iu;

/** The same in Chinese: 我将 / 我会 / 我需要 / 让我 / 接下来 at the start of a sentence. */
const INTENT_ZH_RE = /^(?:[^，,。]{0,20}[，,])?(?:我将|我会|我需要|我要|让我|接下来我?|下一步)/;

/**
 * A sentence that settles the format's own choice in the third person ("the best action to take is to search…",
 * "the tool to use is…"): a decision about a step, not an answer.
 */
const DECISION_RE = /\b(?:action|tool)s? to (?:take|use|call)\b[^.!?]{0,60}?\b(?:is|are|would be)\b/i;

/** Sentence ends (Latin and CJK), bounded to the text's first and last few thousand characters. */
const SENTENCE_END_RE = /[.!?。！？]+["'”’)]*(?:\s+|$)|\n+/;

const SCAN_CHARS = 4000;

/** The sentences of `text`'s first and last few thousand characters, trimmed and non-empty. */
function sentences(text: string): string[] {
  const slice =
    text.length <= 2 * SCAN_CHARS ? text : `${text.slice(0, SCAN_CHARS)}\n${text.slice(-SCAN_CHARS)}`;
  return slice
    .split(SENTENCE_END_RE)
    .map((s) => s.replace(/^[\s*_#>-]+/, '').trim())
    .filter(Boolean);
}

/** Whether one sentence states an intention to act. */
export function isIntent(sentence: string): boolean {
  const s = sentence.slice(0, 200);
  return INTENT_RE.test(s) || INTENT_ZH_RE.test(s) || DECISION_RE.test(s);
}

/** What the sentences of a prose reply announce. */
export interface Announcement {
  /** The first sentence opens with a plan. */
  opensWithPlan: boolean;
  /** The last sentence hands over to a next step. */
  handsOver: boolean;
  /** Sentences that state an intention to act, and whether the last or second last is one. */
  intents: number;
  endsWithIntent: boolean;
}

/** Reads a prose reply's sentences for announced steps. */
export function announcement(text: string): Announcement {
  const all = sentences(text);
  const flags = all.map(isIntent);
  const last = all.at(-1) ?? '';
  return {
    opensWithPlan: PLAN_RE.test(text.slice(0, 80)),
    handsOver: NEXT_STEP_RE.test(last.slice(0, 200)),
    intents: flags.filter(Boolean).length,
    endsWithIntent: flags.slice(-2).some(Boolean),
  };
}
