/**
 * A native tool call leaked into the text as the server's special tokens (Kimi and similar chat templates):
 * `<|tool_call_begin|>functions.load_file:0<|tool_call_argument_begin|>{…}<|tool_call_end|>`.
 */
import type { ToolInput } from './input.js';
import { parseObject } from './literal.js';

const BEGIN = '<|tool_call_begin|>';
const ARGS = '<|tool_call_argument_begin|>';
const END = '<|tool_call_end|>';

/** The first leaked native call in `body`: its tool, its arguments and where it starts. */
export function nativeCall(body: string): { tool: string; input: ToolInput; at: number } | undefined {
  const at = body.indexOf(BEGIN);
  if (at < 0) return undefined;
  const argsAt = body.indexOf(ARGS, at);
  if (argsAt < 0) return undefined;
  const end = body.indexOf(END, argsAt);
  const name = body
    .slice(at + BEGIN.length, argsAt)
    .trim()
    .replace(/:\d{1,4}$/, '');
  if (!name) return undefined;
  const args = body.slice(argsAt + ARGS.length, end < 0 ? body.length : end).trim();
  return { tool: name, input: (args ? parseObject(args) : undefined) ?? {}, at };
}
