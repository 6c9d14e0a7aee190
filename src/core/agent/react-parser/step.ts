import type { ToolInput } from './input.js';

/** What one model reply asks the agent to do: call a tool, answer the user, or be reminded of the format. */
export type ReactStep =
  | { kind: 'action'; thought: string | undefined; tool: string; input: ToolInput }
  | { kind: 'final'; thought: string | undefined; answer: string }
  | { kind: 'invalid'; thought: string | undefined; reason: string };

/** The step that reminds the model of the format, saying what was wrong. */
export function invalid(thought: string | undefined, reason: string): ReactStep {
  return { kind: 'invalid', thought, reason };
}
