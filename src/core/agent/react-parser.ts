/**
 * A forgiving parser for the text ReAct protocol:
 *
 *   Thought: <reasoning>
 *   Action: <tool name>
 *   Action Input: <JSON object>
 *
 * or `Thought: … / Final Answer: …`. Pure functions only, so they can be tested on collected model outputs;
 * every step is linear in the length of the reply. The pieces live in ./react-parser/.
 */
import { findBlob, parseAction, toolStep } from './react-parser/action.js';
import { finalStep } from './react-parser/final-answer.js';
import { parseInput, type ToolInput } from './react-parser/input.js';
import { type Label, scanLabels } from './react-parser/labels.js';
import { announcesStep as proseAnnouncesStep, proseAnswer } from './react-parser/prose.js';
import { fitInput, type ToolShape } from './react-parser/schema-input.js';
import { isFenceLine, proseText, sectionText } from './react-parser/section.js';
import { invalid, type ReactStep } from './react-parser/step.js';
import { maskThinking } from './react-parser/thinking.js';
import { matchTool } from './react-parser/tool-name.js';

export { finalAnswerStart } from './react-parser/final-answer.js';
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
 * label, or its prose (with or without `Thought:` labels) plans a next step or stops on a bare step marker.
 * Such a reply is never delivered as an answer, not even at the last step.
 */
export function announcesStep(text: string): boolean {
  const { text: body } = maskThinking(text.replace(/\r\n?/g, '\n'));
  for (const label of scanLabels(body)) {
    if (label.kind === 'action' || label.kind === 'input') return true;
  }
  return proseAnnouncesStep(body) || proseAnnouncesStep(body.replace(THOUGHT_LABEL_RE, ''));
}

/**
 * Parses one model reply in the text ReAct protocol into the step the agent should take. Tools are names, or
 * names with their JSON schema so that a plain-text input can be fitted to the tool's fields.
 */
export function parseReactOutput(text: string, tools: readonly (string | ToolShape)[]): ReactStep {
  const shapes = tools.map((t) => (typeof t === 'string' ? { name: t } : t));
  return fitStep(
    parseStep(
      text,
      shapes.map((s) => s.name),
    ),
    shapes,
  );
}

function parseStep(text: string, toolNames: readonly string[]): ReactStep {
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
    if (labels.length === 0) {
      const answer = proseAnswer(body);
      if (answer) return { kind: 'final', thought: thinking || undefined, answer };
    }
    const reason = labels.some((l) => l.kind === 'input')
      ? 'Action Input without an Action'
      : 'no Action or Final Answer found';
    return invalid(findThought(body, labels, body.length, thinking), reason);
  }
  const thought = findThought(body, labels.slice(0, -1), decisive.start, thinking);
  if (decisive.kind === 'final') return finalStep(body, decisive, thought, toolNames);

  // The Action and its Action Input (after it, or just before it); a bounded number of pulls keeps this linear.
  let terminator = pull();
  let inputLabel: Label | undefined;
  let inputEnd = body.length;
  if (terminator?.kind === 'input') {
    inputLabel = terminator;
    terminator = pull();
    inputEnd = terminator?.start ?? body.length;
  } else if (labels.at(-2)?.kind === 'input') {
    inputLabel = labels.at(-2);
    inputEnd = decisive.start;
  }
  const actionEnd =
    (inputLabel && inputLabel.start > decisive.start ? inputLabel.start : terminator?.start) ?? body.length;
  const action = parseAction(sectionText(body, decisive, actionEnd), toolNames);
  let input: ToolInput | undefined;
  if (inputLabel) {
    input = parseInput(sectionText(body, inputLabel, inputEnd));
    // `Action: calculator(2+2)` followed by an empty `Action Input: {}`: the call's own arguments win.
    if (typeof input === 'object' && Object.keys(input).length === 0 && action.inline !== undefined) {
      input = action.inline;
    }
  }
  input ??= action.inline ?? {};
  // The prompt's template copied onto the Action line, the real call written as the input.
  if (typeof input === 'string' && !matchTool(action.tool, toolNames)) {
    const call = parseAction(input, toolNames);
    // Only a call form (`web_search("x")`, `web_search: x`): a sentence that mentions a tool is not one.
    if (call.inline !== undefined && matchTool(call.tool, toolNames)) {
      action.tool = call.tool;
      input = call.inline ?? {};
    }
  }

  const step = action.tool ? toolStep(action.tool, input, thought, toolNames) : undefined;
  if (step) return step;
  // No usable Action, but a Final Answer follows it.
  if (terminator?.kind === 'final') return finalStep(body, terminator, thought, toolNames);
  return invalid(thought, action.tool ? 'Final Answer is empty' : 'Action has no tool name');
}
