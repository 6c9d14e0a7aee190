import type { ChatMessage, ChatModel } from '../llm/types.js';
import { getPrompt, type PromptSet, renderPrompt } from '../prompts.js';
import { type Tool, toToolSpec } from '../tools/define-tool.js';
import { createAnswerStream } from './answer-stream.js';
import { LENGTH_RETRY } from './notes.js';
import type { Protocol } from './protocol.js';
import { plansStep } from './react-parser/prose.js';
import { createReasoningSteps } from './reasoning-steps.js';
import { quotedObservation } from './run-tools.js';

/**
 * Text is held back before streaming it as the answer, since the system prompt asks for one short sentence
 * before each tool call, and that sentence is not an answer. It is let go at HOLD_CHARS, or as soon as a
 * second sentence or a second line starts (a sentence before a call is one sentence): for a typical answer
 * that is after its first sentence, not after 160 characters. Text that still turns out to come before a
 * tool call is retracted.
 */
const HOLD_CHARS = 160;
const SECOND_SENTENCE = /[.!?](?:\s+)\S|[。！？]\s*\S|\n\s*\S/;
const answerStart = (last: boolean) => (text: string) =>
  last || text.length >= HOLD_CHARS || SECOND_SENTENCE.test(text) ? 0 : -1;

/** Native function calling over Chat Completions (`tools`, `tool_calls`, `tool` messages). */
export function createToolsProtocol(model: ChatModel, tools: readonly Tool[], prompts: PromptSet): Protocol {
  const specs = tools.map(toToolSpec);
  const toolNames = tools.map((t) => t.name).join(', ') || '(none)';
  const system = getPrompt(prompts, 'system-tools');
  const reminder = renderPrompt(
    getPrompt(prompts, 'format-reminder-tools'),
    { tool_names: toolNames },
    'format-reminder-tools',
  );
  const finalStep = getPrompt(prompts, 'final-step-tools');

  return {
    systemPrompt: (date) => renderPrompt(system, { date, tool_names: toolNames }, 'system-tools'),

    async decide(messages, { step, last, signal, emit, cacheKey, showReasoning }) {
      const stream = createAnswerStream(emit, answerStart(last));
      const reasoning = createReasoningSteps(emit, step, showReasoning);
      const completion = await model.complete({
        messages,
        ...(specs.length ? { tools: specs, toolChoice: last ? 'none' : 'auto' } : {}),
        signal,
        onTextDelta: reasoning.before(stream.push),
        onReasoningDelta: reasoning.push,
        ...(cacheKey ? { cacheKey } : {}),
      });
      reasoning.flush();
      const content = completion.content.trim();
      const usage = completion.usage;
      const cut = completion.finishReason === 'length';
      if (completion.toolCalls.length > 0 && !last) {
        stream.retract();
        // The last call's arguments may end mid-way: none of the calls is run.
        if (cut) return { usage, decision: { kind: 'cut' } };
        const names = [...new Set(completion.toolCalls.map((c) => c.name))].join(' and ');
        const record: ChatMessage = {
          role: 'assistant',
          content: completion.content || null,
          toolCalls: completion.toolCalls,
        };
        return {
          usage,
          decision: {
            kind: 'act',
            thought: content || `Calling ${names}.`,
            calls: completion.toolCalls.map((c) => ({
              id: c.id,
              tool: c.name,
              input: c.arguments,
              rawJson: true,
            })),
            record,
          },
        };
      }
      if (!content) {
        if (cut) return { usage, decision: { kind: 'cut' } };
        return {
          usage,
          decision: { kind: 'invalid', reason: 'empty reply', record: { role: 'assistant', content: '' } },
        };
      }
      // A cut reply that only announces its next step ("Let me look that up") was cut before its tool call:
      // retried, not delivered. Other cut text is the answer as far as it got, delivered flagged as cut.
      if (cut && plansStep(content, { afterResults: messages.some((m) => m.role === 'tool') })) {
        stream.retract();
        return { usage, decision: { kind: 'cut', record: { role: 'assistant', content } } };
      }
      stream.finish(content);
      return { usage, decision: { kind: 'final', text: content, thought: undefined, truncated: cut } };
    },

    observationMessages: (calls, observations) =>
      calls.map((call, i) => ({
        role: 'tool',
        toolCallId: call.id,
        content: quotedObservation(call, observations[i]),
      })),

    reminder: () => ({ role: 'user', content: reminder }),
    lengthRetry: () => ({ role: 'user', content: LENGTH_RETRY }),
    finalStep: () => ({ role: 'user', content: finalStep }),
  };
}
