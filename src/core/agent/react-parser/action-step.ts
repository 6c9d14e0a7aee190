/**
 * The step an Action label decides: its tool, and its input from the Action Input after it (or just before it)
 * or from the Action line itself.
 */
import { leadingCall, parseAction, toolStep } from './action.js';
import { escapesMarkdown, unescapeInput } from './escapes.js';
import { finalStep } from './final-answer.js';
import { parseInput, type ToolInput } from './input.js';
import { continuesInput } from './input-extent.js';
import type { Label } from './labels.js';
import { sectionText } from './section.js';
import { invalid, type ReactStep } from './step.js';
import { matchTool } from './tool-name.js';

/** An Action that is one inline code span and nothing else. */
const CODE_SPAN_RE = /^`[^`\n]+`$/;

/** Most label-like keys one Action Input may hold: bounds the pulls, which keeps the parse linear. */
const MAX_INPUT_KEYS = 64;

/**
 * The step for the Action label `action`. `labels` are the labels found before it (itself last); `pull` yields
 * the labels after it, and is called a bounded number of times.
 */
export function actionStep(
  body: string,
  action: Label,
  labels: readonly Label[],
  pull: () => Label | undefined,
  thought: string | undefined,
  toolNames: readonly string[],
): ReactStep {
  let terminator = pull();
  let inputLabel: Label | undefined;
  let inputEnd = body.length;
  if (terminator?.kind === 'input') {
    inputLabel = terminator;
    terminator = pull();
    for (
      let n = 0;
      terminator && n < MAX_INPUT_KEYS && continuesInput(body, inputLabel, terminator, toolNames);
      n++
    )
      terminator = pull();
    inputEnd = terminator?.start ?? body.length;
  } else if (labels.at(-2)?.kind === 'input') {
    inputLabel = labels.at(-2);
    inputEnd = action.start;
  }
  const actionEnd =
    (inputLabel && inputLabel.start > action.start ? inputLabel.start : terminator?.start) ?? body.length;
  const actionText = sectionText(body, action, actionEnd);
  const parsed = parseAction(actionText, toolNames);
  let tool = parsed.tool;
  let input: ToolInput | undefined;
  if (inputLabel) {
    input = parseInput(sectionText(body, inputLabel, inputEnd));
    // `Action: calculator(2+2)` followed by an empty `Action Input: {}`: the call's own arguments win.
    if (typeof input === 'object' && Object.keys(input).length === 0 && parsed.inline !== undefined) {
      input = parsed.inline;
    }
  }
  input ??= parsed.inline ?? {};
  // The format's placeholder (or the prompt's template) as the Action: the tool is the one the input opens with.
  if (typeof input === 'string' && !matchTool(tool, toolNames)) {
    const call = parsed.placeholder ? leadingCall(input, toolNames) : parseAction(input, toolNames);
    // Otherwise only a call form (`web_search("x")`, `web_search: x`): a sentence that mentions a tool is not one.
    if (call && (parsed.placeholder || call.inline !== undefined) && matchTool(call.tool, toolNames)) {
      tool = matchTool(call.tool, toolNames)!;
      input = call.inline ?? {};
    }
  }
  // `Action: I should use the tool \`search(query)\` to…`, then prose: the parameters, no value for any.
  if (parsed.signature && !inputLabel)
    return invalid(thought, "Action names the tool's parameters, not their values");
  // `Action: \`print(df.shape)\`` with no input: code the model wants run, in no tool's name, is no call.
  if (!inputLabel && CODE_SPAN_RE.test(actionText.trim()) && !matchTool(tool, toolNames)) {
    return invalid(thought, 'Action holds code, not a tool name');
  }
  const outside = `${thought ?? ''}\n${actionText.split(/[([{:\n]/, 1)[0]}`;
  if (escapesMarkdown(outside)) input = unescapeInput(input);

  const step = tool ? toolStep(tool, input, thought, toolNames) : undefined;
  if (step) return step;
  // No usable Action, but a Final Answer follows it.
  if (terminator?.kind === 'final') return finalStep(body, terminator, thought, toolNames);
  return invalid(thought, tool ? 'Final Answer is empty' : 'Action has no tool name');
}
