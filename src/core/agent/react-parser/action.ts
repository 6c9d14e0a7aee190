/**
 * The Action section: which tool, and any input written on the Action line itself (`calculator(2+2)`,
 * `calculator: 2+2`, a JSON action object). "Final Answer" given as the tool is read as the answer.
 */
import { parseCallArgs, parseInput, type ToolInput } from './input.js';
import { asObject, isBlank, parseLiteral, parseObject, scanBalanced } from './literal.js';
import { nativeCall } from './native-call.js';
import { isPlanOnly, PLAN_ONLY_REASON } from './plan-answer.js';
import { fenceAt, stripFence } from './section.js';
import { writesSignature } from './signature.js';
import { invalid, type ReactStep } from './step.js';
import {
  cleanName,
  findToolWord,
  isFinalAnswerName,
  leadingTool,
  matchTool,
  toolWords,
} from './tool-name.js';

const NO_TOOL_RE = /^(?:none|null|nil|n\/?a|no[ _-]?action|nothing|no tool|-+)$/i;
const NAME_RE = /^[`'"*<[]*([\p{L}\p{N}_][\p{L}\p{N}_./-]*)/u;
const ARG_SEPARATORS = ':=,-—|：';

/** An Action's tool ('' when it names none) and the input written beside it, if any. */
interface ParsedAction {
  tool: string;
  inline: ToolInput | undefined;
  /** The Action line held the format's placeholder or a list of tools: the input names the tool. */
  placeholder?: boolean;
  /** The Action is a sentence naming the tool by its signature, with no values (see ./signature.ts). */
  signature?: boolean;
}

const WRAPPER_KEYS = ['tool_call', 'tool_calls', 'function_call', 'action'];

/** The action inside a one-key wrapper (`{"tool_call": {…}}`) or a one-item list (`[{…}]`), else `v` itself. */
function unwrap(v: unknown): Record<string, unknown> | undefined {
  for (let depth = 0; depth < 3; depth++) {
    if (Array.isArray(v) && v.length === 1) v = v[0];
    const obj = asObject(v);
    const keys = obj ? Object.keys(obj) : [];
    const inner =
      keys.length === 1 && WRAPPER_KEYS.includes(keys[0]!.toLowerCase()) ? obj![keys[0]!] : undefined;
    if (inner === undefined || typeof inner === 'string') return obj;
    v = inner;
  }
  return asObject(v);
}

/** A LangChain-style JSON action (`{"action": "calculator", "action_input": {...}}`) or a leaked tool call. */
function interpretBlob(value: unknown): { tool: string; input: ToolInput } | undefined {
  const obj = unwrap(value);
  if (!obj) return undefined;
  const fn = asObject(obj.function);
  const name = [obj.action, obj.tool, obj.tool_name, obj.name, fn?.name].find(
    (v): v is string => typeof v === 'string' && v.trim() !== '',
  );
  if (!name) return undefined;
  const raw = [
    obj.action_input,
    obj.tool_input,
    obj.input,
    obj.arguments,
    obj.args,
    obj.parameters,
    fn?.arguments,
  ].find((v) => v !== undefined && v !== null);
  const rawObject = asObject(raw);
  let input: ToolInput = {};
  if (typeof raw === 'string') input = parseInput(raw);
  else if (rawObject) input = rawObject;
  else if (raw !== undefined) input = JSON.stringify(raw);
  return { tool: name.trim(), input };
}

/** The bracketed value `s` starts with, or all of `s` when it is not closed. */
function sliceBalanced(s: string): string {
  const b = scanBalanced(s, 0);
  return b.end >= 0 ? s.slice(0, b.end) : s;
}

/**
 * The input written right after a tool name ending at `p`: call brackets (`(…)`, `[…]`, after up to a few spaces
 * when `spaced`), or a separator or JSON after it; undefined when none follows.
 */
function inlineArgs(s: string, p: number, spaced: boolean): { inline: ToolInput | undefined } | undefined {
  let k = p;
  while (spaced && k < s.length && (s[k] === ' ' || s[k] === '\t') && k - p < 4) k++;
  if (s[k] === '(' || s[k] === '[') {
    let b = scanBalanced(s, k);
    // A quote never closed is natural text's (`search['90s hits]`), not a string: match the brackets alone.
    if (b.end < 0 && b.inString) b = scanBalanced(s, k, false);
    return { inline: parseCallArgs(b.end >= 0 ? s.slice(k + 1, b.end - 1) : s.slice(k + 1)) };
  }
  let q = p;
  while (q < s.length && isBlank(s[q])) q++;
  const after = s.slice(q);
  if (after && (ARG_SEPARATORS.includes(after[0]!) || after.startsWith('{') || after.startsWith('```'))) {
    const rest = ARG_SEPARATORS.includes(after[0]!) ? after.slice(1) : after;
    return { inline: rest.trim() ? parseInput(rest) : undefined };
  }
  return undefined;
}

/** The tool named at the start of `s` and what follows it as its input: `web_search("x")`, `web_search: x`, `web_search x`. */
export function leadingCall(
  s: string,
  toolNames: readonly string[],
  all = true,
): { tool: string; inline: ToolInput | undefined } | undefined {
  const lead = leadingTool(s, toolNames, all);
  if (!lead) return undefined;
  let p = 0;
  while (p < lead.rest.length && '`\'"*>]'.includes(lead.rest[p]!)) p++;
  const args = inlineArgs(lead.rest, p, true);
  if (args) return { tool: lead.tool, ...args };
  const rest = lead.rest.slice(p).trim();
  return { tool: lead.tool, inline: rest ? parseInput(rest) : undefined };
}

/** The format's own placeholder copied as the Action ("the action to take, should be one of [a, b]"). */
const PLACEHOLDER_RE = /\b(?:should be one of|the action to take|(?:one|any) of \[)/i;

/** Whether an Action line is the placeholder or a list of tools rather than a choice of one. */
function isPlaceholder(firstLine: string, toolNames: readonly string[]): boolean {
  const names = firstLine.split(/[({"':：=]/, 1)[0]!;
  return PLACEHOLDER_RE.test(firstLine.slice(0, 200)) || toolWords(names, toolNames).size >= 2;
}

/** The tool name (canonicalised when known) and any input written on the Action line itself. */
export function parseAction(content: string, toolNames: readonly string[]): ParsedAction {
  let s = content.trim();
  if (fenceAt(s)) s = stripFence(s).trim();
  if (s.startsWith('{') || s.startsWith('[{')) {
    const blob = interpretBlob(s.startsWith('{') ? parseObject(s) : parseLiteral(sliceBalanced(s))?.value);
    if (!blob) return { tool: '', inline: undefined };
    return { tool: matchTool(blob.tool, toolNames) ?? blob.tool, inline: blob.input };
  }
  const nl = s.indexOf('\n');
  const firstLine = (nl < 0 ? s : s.slice(0, nl)).trim();
  const restLines = nl < 0 ? '' : s.slice(nl + 1).trim();
  const restInput = restLines ? parseInput(restLines) : undefined;
  // `None (direct response required)`: a note in brackets does not make it a tool.
  const bare = cleanName(firstLine.slice(0, 60).replace(/\s*\([^()]*\)\s*$/, ''));
  if (NO_TOOL_RE.test(bare.slice(0, 20))) return { tool: '', inline: undefined };
  // A name holding spaces or separators (`Gmail: Find Email`) is read whole before the line is split.
  const named = leadingCall(firstLine, toolNames, false);
  if (named) return { tool: named.tool, inline: named.inline ?? restInput };
  if (isPlaceholder(firstLine, toolNames)) return { tool: '', inline: restInput, placeholder: true };

  const m = NAME_RE.exec(s);
  if (m) {
    const lead = m[0].length - m[1]!.length;
    let token = m[1]!;
    // Sentence punctuation or a path separator after the name is not part of it.
    while (token.length > 1 && '.-/'.includes(token.at(-1)!)) token = token.slice(0, -1);
    let p = lead + token.length;
    const closers = m[0].slice(0, lead).includes('[') ? '`\'"*>]' : '`\'"*>';
    while (p < s.length && closers.includes(s[p]!)) p++;
    const known = matchTool(token, toolNames);
    // `tool ({"q": "x"})`: a call with a space before its brackets, on a known tool only.
    const args = inlineArgs(s, p, known !== undefined);
    if (args) return { tool: known ?? token, ...args };
    // A multi-word tool name ("web search") that the first token alone does not match.
    const whole = matchTool(firstLine, toolNames);
    if (whole) return { tool: whole, inline: restInput };
    let q = p;
    while (q < s.length && isBlank(s[q])) q++;
    if (known) return { tool: known, inline: q < s.length ? parseInput(s.slice(q)) : undefined };
  }
  const mentioned = findToolWord(firstLine, toolNames);
  if (mentioned && writesSignature(firstLine, mentioned, toolNames)) {
    return { tool: mentioned, inline: restInput, signature: true };
  }
  if (mentioned) return { tool: mentioned, inline: restInput };
  return { tool: cleanName(firstLine), inline: restInput };
}

/** The text of an answer given as a tool input (`Action: Final Answer` / `"action": "Final Answer"`). */
function inputAsAnswer(input: ToolInput): string {
  if (typeof input === 'string') return input.trim();
  const values = Object.values(input);
  if (values.length === 1 && typeof values[0] === 'string') return values[0].trim();
  return values.length === 0 ? '' : JSON.stringify(input);
}

/**
 * The step for calling `tool`, or the answer when the "tool" is Final Answer (`finish[…]`); undefined when that
 * answer is empty, the reminder when it only plans the next step.
 */
export function toolStep(
  tool: string,
  input: ToolInput,
  thought: string | undefined,
  toolNames: readonly string[],
): ReactStep | undefined {
  if (!isFinalAnswerName(tool, toolNames)) return { kind: 'action', thought, tool, input };
  const answer = inputAsAnswer(input);
  if (!answer) return undefined;
  return isPlanOnly(answer) ? invalid(thought, PLAN_ONLY_REASON) : { kind: 'final', thought, answer };
}

/** Looks for a JSON action object in a reply that has no Action / Final Answer label. */
export function findBlob(
  body: string,
  toolNames: readonly string[],
): { step: ReactStep; at: number } | undefined {
  let tries = 0;
  const native = nativeCall(body);
  if (native) {
    const tool = matchTool(native.tool, toolNames) ?? native.tool;
    const step = toolStep(tool, native.input, undefined, toolNames);
    return step && { step, at: native.at };
  }
  // Only objects (or one-item lists) that start a line, and only the first few: prose with braces is not an action.
  for (let i = body.indexOf('{'); i >= 0 && tries < 3; i = body.indexOf('{', i + 1)) {
    let k = i - 1;
    while (k >= 0 && (body[k] === ' ' || body[k] === '\t')) k--;
    const listed = k >= 0 && body[k] === '[';
    if (listed) k--;
    while (listed && k >= 0 && (body[k] === ' ' || body[k] === '\t')) k--;
    if (k >= 0 && body[k] !== '\n') continue;
    tries++;
    const at = listed ? body.lastIndexOf('[', i) : i;
    const blob = interpretBlob(
      listed ? parseLiteral(sliceBalanced(body.slice(at)))?.value : parseObject(body.slice(i)),
    );
    if (!blob) continue;
    const tool = matchTool(blob.tool, toolNames) ?? blob.tool;
    const step = toolStep(tool, blob.input, undefined, toolNames);
    return step && { step, at };
  }
  return undefined;
}
