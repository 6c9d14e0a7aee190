import type { ChatMessage, ChatModel } from '../llm/types.js';
import { getPrompt, type PromptSet, renderPrompt } from '../prompts.js';
import type { Tool } from '../tools/define-tool.js';
import { createAnswerStream } from './answer-stream.js';
import { LENGTH_RETRY_REASON } from './notes.js';
import type { Protocol } from './protocol.js';
import { announcesStep, finalAnswerStart, parseReactOutput } from './react-parser.js';
import { createReasoningSteps } from './reasoning-steps.js';
import { quotedObservation } from './run-tools.js';

/** Whether tool results have come in earlier in the run: narrating a next step is then a plan. */
function afterResults(messages: readonly ChatMessage[]): boolean {
  return messages.some(
    (m) => m.role === 'user' && typeof m.content === 'string' && m.content.startsWith('Observation: '),
  );
}

/** The stop sequence that keeps the model from inventing its own observations. */
export const OBSERVATION_STOP = '\nObservation:';

/** The text protocol of the seed design: Thought / Action / Action Input / Observation / Final Answer. */
export function createReactProtocol(model: ChatModel, tools: readonly Tool[], prompts: PromptSet): Protocol {
  const names = tools.map((t) => t.name);
  const toolNames = names.join(', ');
  const toolList = tools
    .map((t) => `- ${t.name}: ${t.description}\n  Input schema: ${JSON.stringify(t.parameters)}`)
    .join('\n');
  const system = getPrompt(prompts, 'system-react');
  const reminder = getPrompt(prompts, 'format-reminder-react');
  const finalStep = getPrompt(prompts, 'final-step-react');

  return {
    systemPrompt: (date) =>
      renderPrompt(system, { date, tools: toolList || '(none)', tool_names: toolNames }, 'system-react'),

    async decide(messages, { step, last, signal, emit, cacheKey, showReasoning }) {
      const stream = createAnswerStream(emit, finalAnswerStart);
      const reasoning = createReasoningSteps(emit, step, showReasoning);
      const completion = await model.complete({
        messages,
        stop: [OBSERVATION_STOP],
        signal,
        onTextDelta: reasoning.before(stream.push),
        onReasoningDelta: reasoning.push,
        ...(cacheKey ? { cacheKey } : {}),
      });
      reasoning.flush();
      const usage = completion.usage;
      const cut = completion.finishReason === 'length';
      const context = { afterResults: afterResults(messages) };
      const parsed = parseReactOutput(completion.content, tools, context);
      // A labelled Final Answer is the answer even when cut: delivered, flagged as cut. Unlabelled prose that
      // reads as an answer is one only when the model finished it.
      if (parsed.kind === 'final' && (!cut || finalAnswerStart(completion.content) >= 0)) {
        stream.finish(parsed.answer);
        return {
          usage,
          decision: { kind: 'final', text: parsed.answer, thought: parsed.thought, truncated: cut },
        };
      }
      stream.retract();
      const text = completion.content.trim();
      // Anything else the limit cut (a half Action Input, prose that may be a plan) is retried, never run or
      // delivered.
      if (cut) {
        return {
          usage,
          decision: text ? { kind: 'cut', record: { role: 'assistant', content: text } } : { kind: 'cut' },
        };
      }
      if (parsed.kind === 'action') {
        // Echo the step back in canonical form: it keeps the model on the format.
        const input = JSON.stringify(parsed.input);
        const thought = parsed.thought || `Using ${parsed.tool}.`;
        return {
          usage,
          decision: {
            kind: 'act',
            thought,
            calls: [{ id: `react_${step}`, tool: parsed.tool, input: parsed.input, rawJson: false }],
            record: {
              role: 'assistant',
              content: `Thought: ${thought}\nAction: ${parsed.tool}\nAction Input: ${input}`,
            },
          },
        };
      }
      const reason = parsed.kind === 'invalid' ? parsed.reason : 'no Action or Final Answer found';
      const plan = announcesStep(completion.content, context);
      // Prose beats an error at the last step, but a plan is no answer: the loop says the steps ran out.
      if (last && text && !plan) {
        return { usage, decision: { kind: 'final', text, thought: parsed.thought, truncated: false } };
      }
      return {
        usage,
        decision: {
          kind: 'invalid',
          reason,
          record: { role: 'assistant', content: completion.content },
          ...(plan ? { plan } : {}),
        },
      };
    },

    observationMessages: (calls, observations) =>
      observations.map((o, i) => ({
        role: 'user',
        content: `Observation: ${quotedObservation(calls[i] ?? { tool: 'unknown' }, o)}`,
      })),

    reminder: (reason) => ({
      role: 'user',
      content: renderPrompt(reminder, { reason, tool_names: toolNames }, 'format-reminder-react'),
    }),
    lengthRetry: () => ({
      role: 'user',
      content: renderPrompt(
        reminder,
        { reason: LENGTH_RETRY_REASON, tool_names: toolNames },
        'format-reminder-react',
      ),
    }),
    finalStep: () => ({ role: 'user', content: finalStep }),
  };
}
