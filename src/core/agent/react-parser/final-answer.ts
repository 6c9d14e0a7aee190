/**
 * The Final Answer section, both for the finished reply and while it is still streaming in.
 */
import { type Label, scanLabels } from './labels.js';
import { isBlank } from './literal.js';
import { proseText } from './section.js';
import { invalid, type ReactStep } from './step.js';
import { maskThinking } from './thinking.js';

/** The step for a Final Answer label: everything after it is the answer. */
export function finalStep(body: string, label: Label, thought: string | undefined): ReactStep {
  const answer = proseText(body, label, body.length).trim();
  return answer ? { kind: 'final', thought, answer } : invalid(thought, 'Final Answer is empty');
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
