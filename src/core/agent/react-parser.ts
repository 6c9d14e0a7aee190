/**
 * A forgiving parser for the text ReAct protocol:
 *
 *   Thought: <reasoning>
 *   Action: <tool name>
 *   Action Input: <JSON object>
 *
 * or `Thought: … / Final Answer: …`. Pure functions only, so they can be tested on collected model outputs;
 * every step is linear in the length of the reply. The pieces live in ./react-parser/.
 *
 * A reply with both an Action and a Final Answer: whichever comes first decides.
 * - Action first, the answer after it (usually after an Observation the model wrote itself): the Action runs
 *   and the rest is dropped. Evidence, in the held-out set: in every such transcript the answer rests on an
 *   observation no tool produced. The Hugging Face agents course prints one and says the run must stop to call
 *   get_weather instead; the Llama 3 Bedrock notebook's made-up "$530 billion" market cap became "$2.38
 *   trillion" once the search really ran; InternLM2 (TinyAgent), Qwen (DashScope) and Command-R (Oracle
 *   lab) invent the search result the same way.
 * - Final Answer first, an Action after it: the answer stands and ends where an Action line naming one of the
 *   tools begins (an Action naming no tool is part of the answer's text). Evidence: the one such transcript
 *   (held-out langchain-final-then-made-up-question, LangChain's API Gateway notebook) answers, then invents a
 *   new Question and calls the calculator for that: the call after an answer belongs to a made-up turn.
 */
import { findBlob } from './react-parser/action.js';
import { actionStep } from './react-parser/action-step.js';
import { conversationalStep, finalStep } from './react-parser/final-answer.js';
import { type Label, scanLabels } from './react-parser/labels.js';
import { PLAN_ONLY_REASON } from './react-parser/plan-answer.js';
import { announcesStep as proseAnnouncesStep, proseAnswer, type ReplyContext } from './react-parser/prose.js';
import { fitInput, type ToolShape } from './react-parser/schema-input.js';
import { isFenceLine, proseText } from './react-parser/section.js';
import { invalid, type ReactStep } from './react-parser/step.js';
import { maskThinking } from './react-parser/thinking.js';

export { finalAnswerStart } from './react-parser/final-answer.js';
export type { ReplyContext } from './react-parser/prose.js';
export type { ToolShape } from './react-parser/schema-input.js';
export type { ReactStep } from './react-parser/step.js';

/** Maps a plain-text input onto the tool's single field; with several fields, the reminder names them. */
function fitStep(step: ReactStep, shapes: readonly ToolShape[]): ReactStep {
  if (step.kind !== 'action') return step;
  const fitted = fitInput(
    step.input,
    shapes.find((s) => s.name === step.tool),
  );
  if ('input' in fitted) return { ...step, input: fitted.input };
  return invalid(step.thought, `Action Input must be JSON with ${fitted.fields.join(', ')}`.slice(0, 120));
}

/**
 * The Thought nearest before `end` (the decisive label), else the text before the first label, else the
 * `<think>` text. `before` are the labels found before `end`.
 */
function findThought(
  body: string,
  before: readonly Label[],
  end: number,
  thinking: string,
): string | undefined {
  for (let i = before.length - 1; i >= 0; i--) {
    const label = before[i]!;
    if (label.kind === 'thought') return proseText(body, label, before[i + 1]?.start ?? end) || undefined;
  }
  const first = before[0];
  // Unlabelled text is a thought only when something labelled (or a JSON action) follows it.
  if (first || end < body.length) {
    const preamble = body
      .slice(0, first?.start ?? end)
      .split('\n')
      .filter((line) => !isFenceLine(line))
      .join('\n')
      .trim();
    if (preamble) return preamble;
  }
  return thinking || undefined;
}

/** A line's leading `Thought:` label (with or without a step number or bold). */
const THOUGHT_LABEL_RE = /^[ \t]*(?:\*\*)?Thought(?:[ \t]{0,3}\d{1,3})?(?:\*\*)?[ \t]{0,3}[:：][ \t]*/gim;

/**
 * Whether a reply announces a step still to come rather than answering: it has an Action or Action Input
 * label, a Final Answer that only plans the next step, or prose (with or without `Thought:` labels) that plans a
 * next step or stops on a bare step marker.
 * Such a reply is never delivered as an answer, not even at the last step.
 */
export function announcesStep(text: string, context: ReplyContext = {}): boolean {
  const { text: body } = maskThinking(text.replace(/\r\n?/g, '\n'));
  for (const label of scanLabels(body)) {
    if (label.kind === 'action' || label.kind === 'input') return true;
    if (label.kind === 'final') {
      const step = finalStep(body, label, undefined);
      if (step.kind === 'invalid' && step.reason === PLAN_ONLY_REASON) return true;
    }
  }
  return proseAnnouncesStep(body, context) || proseAnnouncesStep(body.replace(THOUGHT_LABEL_RE, ''), context);
}

/**
 * Parses one model reply in the text ReAct protocol into the step the agent should take. Tools are names, or
 * names with their JSON schema so that a plain-text input can be fitted to the tool's fields.
 */
export function parseReactOutput(
  text: string,
  tools: readonly (string | ToolShape)[],
  context: ReplyContext = {},
): ReactStep {
  const shapes = tools.map((t) => (typeof t === 'string' ? { name: t } : t));
  return fitStep(
    parseStep(
      text,
      shapes.map((s) => s.name),
      context,
    ),
    shapes,
  );
}

function parseStep(text: string, toolNames: readonly string[], context: ReplyContext): ReactStep {
  const normalized = text.replace(/\r\n?/g, '\n');
  if (!normalized.trim()) return invalid(undefined, 'empty reply');
  const { text: body, thinking } = maskThinking(normalized);

  const scanner = scanLabels(body);
  const pull = (): Label | undefined => {
    const r = scanner.next();
    return r.done ? undefined : r.value;
  };
  // Labels up to the first Action or Final Answer, which decides the step; later ones are never scanned.
  const labels: Label[] = [];
  let decisive: Label | undefined;
  for (let label = pull(); label; label = pull()) {
    labels.push(label);
    if (label.kind === 'action' || label.kind === 'final') {
      decisive = label;
      break;
    }
  }
  if (!decisive) {
    const blob = findBlob(body, toolNames);
    if (blob) {
      const before = labels.filter((l) => l.start < blob.at);
      return { ...blob.step, thought: findThought(body, before, blob.at, thinking) };
    }
    const conversational = conversationalStep(body, toolNames);
    if (conversational) return conversational;
    if (labels.length === 0) {
      const answer = proseAnswer(body, context);
      if (answer) return { kind: 'final', thought: thinking || undefined, answer };
    }
    const reason = labels.some((l) => l.kind === 'input')
      ? 'Action Input without an Action'
      : 'no Action or Final Answer found';
    return invalid(findThought(body, labels, body.length, thinking), reason);
  }
  const thought = findThought(body, labels.slice(0, -1), decisive.start, thinking);
  if (decisive.kind === 'final') return finalStep(body, decisive, thought, toolNames);
  return actionStep(body, decisive, labels, pull, thought, toolNames);
}
