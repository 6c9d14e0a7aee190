import type { ErrorCode } from '../errors.js';
import type { TokenUsage } from '../llm/types.js';
import type { AgentEventHandler, AnswerCut, RunResult } from './events.js';

/** A run that answered: the answer said as an event, and returned. */
export function answered(
  { text, truncated }: { text: string; truncated: AnswerCut | undefined },
  usage: TokenUsage,
  steps: number,
  emit: AgentEventHandler,
): RunResult {
  const cut = truncated ? { truncated } : {};
  emit({ type: 'answer', text, usage: { ...usage }, steps, ...cut });
  return { status: 'answered', text, usage, steps, ...cut };
}

/** A run that failed: its short message said as an error event, and returned. */
export function failed(code: ErrorCode, message: string, emit: AgentEventHandler): RunResult {
  emit({ type: 'error', code, message });
  return { status: 'failed', code, message };
}
