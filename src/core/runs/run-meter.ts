import type { AgentEventHandler, RunResult } from '../agent/events.js';
import type { TokenUsage } from '../llm/types.js';
import type { UsageResult } from '../ports/usage-store.js';

/** Counts what a run spends as its events pass by: model calls, tokens, tool calls by name. */
export interface RunMeter {
  /** Passes every event on to the original handler, counting on the way. */
  onEvent: AgentEventHandler;
  /** What the run spent, for its usage record. */
  result(outcome: RunResult | undefined, durationMs: number): UsageResult;
}

/**
 * Creates a meter in front of `onEvent`; `before` is what the run had spent already (a run resumed after a
 * restart: its model calls and tokens up to the step it waited at).
 */
export function createRunMeter(
  onEvent: AgentEventHandler,
  before?: { modelCalls: number; usage: TokenUsage },
): RunMeter {
  let modelCalls = before?.modelCalls ?? 0;
  let promptTokens = before?.usage.promptTokens ?? 0;
  let completionTokens = before?.usage.completionTokens ?? 0;
  let cachedTokens = before?.usage.cachedTokens ?? 0;
  const tools: Record<string, number> = {};
  return {
    onEvent(event) {
      if (event.type === 'usage') {
        modelCalls++;
        promptTokens += event.usage.promptTokens;
        completionTokens += event.usage.completionTokens;
        cachedTokens += event.usage.cachedTokens ?? 0;
      } else if (event.type === 'action') {
        tools[event.tool] = (tools[event.tool] ?? 0) + 1;
      }
      onEvent(event);
    },
    result(outcome, durationMs) {
      return {
        outcome: outcome?.status ?? 'failed',
        modelCalls,
        promptTokens,
        completionTokens,
        cachedTokens,
        tools,
        durationMs: Math.max(0, durationMs),
      };
    },
  };
}
