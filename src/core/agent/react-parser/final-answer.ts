/**
 * The Final Answer section, both for the finished reply and while it is still streaming in.
 */
import { type Label, scanLabels } from './labels.js';
import { isBlank } from './literal.js';
import { isPlanOnly, PLAN_ONLY_REASON } from './plan-answer.js';
import { fenceAt, proseText } from './section.js';
import { invalid, type ReactStep } from './step.js';
import { maskThinking } from './thinking.js';
import { matchTool } from './tool-name.js';

/** A line that starts a turn the model made up after its answer: a new Question, Thought, Human turn or Observation. */
const MADE_UP_TURN_RE =
  /^[ \t]{0,8}(?:\*\*)?(?:Question|Thought|Human|Observation)(?:[ \t]{0,3}\d{1,3})?(?:\*\*)?[ \t]{0,3}[:：]/;

/** An `Action:` line, with the text after its colon in group 1. */
const ACTION_LINE_RE = /^[ \t]{0,8}(?:\*\*)?Action(?:[ \t]{0,3}\d{1,3})?(?:\*\*)?[ \t]{0,3}[:：](.*)$/;

/**
 * Whether `line` ends the answer. The rule for a reply with both a Final Answer and an Action: whichever comes
 * first decides the step; a Final Answer's text ends at a made-up next turn or at an Action line that names one
 * of the tools (a follow-up call), so an answer that only quotes the format keeps its lines.
 */
function endsAnswer(line: string, toolNames: readonly string[]): boolean {
  if (MADE_UP_TURN_RE.test(line)) return true;
  const m = ACTION_LINE_RE.exec(line);
  if (!m) return false;
  const name = m[1]!.trim().split(/[([{:]/, 1)[0]!;
  return matchTool(name, toolNames) !== undefined;
}

/** Where the answer that starts at `from` ends: at a made-up next turn outside code fences, else at the end. */
function answerEnd(body: string, from: number, toolNames: readonly string[]): number {
  let fence: string | undefined;
  for (let start = body.indexOf('\n', from) + 1; start > 0; start = body.indexOf('\n', start) + 1) {
    const nl = body.indexOf('\n', start);
    const line = body.slice(start, Math.min(nl < 0 ? body.length : nl, start + 240));
    const opened = fenceAt(line.trimStart());
    if (opened) fence = fence === opened ? undefined : (fence ?? opened);
    else if (!fence && endsAnswer(line, toolNames)) return start;
  }
  return body.length;
}

/**
 * The step for a Final Answer label: everything after it is the answer, up to a turn the model made up; an answer
 * that only plans the next step (see ./plan-answer.ts) gets the reminder.
 */
export function finalStep(
  body: string,
  label: Label,
  thought: string | undefined,
  toolNames: readonly string[] = [],
): ReactStep {
  const answer = proseText(body, label, answerEnd(body, label.contentStart, toolNames)).trim();
  if (!answer) return invalid(thought, 'Final Answer is empty');
  return isPlanOnly(answer) ? invalid(thought, PLAN_ONLY_REASON) : { kind: 'final', thought, answer };
}

/**
 * LangChain's conversational format: `Thought: Do I need to use a tool? No` then `AI: answer` (or `Assistant:`).
 * Only after that question: elsewhere a line starting `AI:` is the reply's own text.
 */
const CONVERSATIONAL_RE =
  /(?:^|\n)[ \t]{0,8}(?:Thought[ \t]{0,3}[:：][ \t]{0,3})?Do I need to use a tool\?[ \t]{0,3}No\b[^\n]{0,40}\n(?:[ \t]{0,8}\n){0,3}[ \t]{0,8}(?:AI|Assistant)[ \t]{0,3}[:：]/i;

/** The answer of a reply in the conversational format, with the thought before it, or undefined. */
export function conversationalStep(body: string, toolNames: readonly string[]): ReactStep | undefined {
  const m = CONVERSATIONAL_RE.exec(body.slice(0, 2000));
  if (!m) return undefined;
  const contentStart = m.index + m[0].length;
  const label: Label = { kind: 'final', start: contentStart, contentStart, open: '' };
  const step = finalStep(body, label, 'Do I need to use a tool? No', toolNames);
  return step.kind === 'final' ? step : undefined;
}

/** For streaming: index in `text` where the final answer's text begins, or -1 if the text so far does not (yet) contain a Final Answer marker that is not preceded by an Action. */
export function finalAnswerStart(text: string): number {
  const { text: body } = maskThinking(text);
  for (const label of scanLabels(body)) {
    if (label.kind === 'action') return -1;
    if (label.kind !== 'final') continue;
    let p = label.contentStart;
    while (p < body.length && isBlank(body[p])) p++;
    if (p >= body.length) return -1;
    // `**Final Answer:*` — the rest of the bold closer has not arrived yet.
    if (label.open && label.contentStart === p && label.open.startsWith(body.slice(p))) return -1;
    return p;
  }
  return -1;
}
