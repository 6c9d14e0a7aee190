import type { ChatModel } from '../llm/types.js';
import { getPrompt, type PromptSet, renderPrompt } from '../prompts.js';
import type { Tool } from '../tools/define-tool.js';
import { createAnswerStream } from './answer-stream.js';
import type { Protocol } from './protocol.js';
import { finalAnswerStart, parseReactOutput } from './react-parser.js';

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

    async decide(messages, { step, last, signal, emit, cacheKey }) {
      const stream = createAnswerStream(emit, finalAnswerStart);
      const completion = await model.complete({
        messages,
        stop: [OBSERVATION_STOP],
        signal,
        onTextDelta: stream.push,
        ...(cacheKey ? { cacheKey } : {}),
      });
      const usage = completion.usage;
      const cut = completion.finishReason === 'length';
      const parsed = parseReactOutput(completion.content, tools);
      switch (parsed.kind) {
        case 'final':
          stream.finish(parsed.answer);
          return {
            usage,
            decision: { kind: 'final', text: parsed.answer, thought: parsed.thought, truncated: cut },
          };
        case 'action': {
          stream.retract();
          // Its Action Input may end mid-way: it is not run.
          if (cut) return { usage, decision: { kind: 'cut' } };
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
        case 'invalid': {
          stream.retract();
          const text = completion.content.trim();
          // Prose beats an error at the last step; a cut reply naming no tool is delivered as incomplete.
          if ((last || cut) && text) {
            return { usage, decision: { kind: 'final', text, thought: parsed.thought, truncated: cut } };
          }
          if (cut) return { usage, decision: { kind: 'cut' } };
          return {
            usage,
            decision: {
              kind: 'invalid',
              reason: parsed.reason,
              record: { role: 'assistant', content: completion.content },
            },
          };
        }
      }
    },

    observationMessages: (_calls, observations) =>
      observations.map((o) => ({ role: 'user', content: `Observation: ${o.text}` })),

    reminder: (reason) => ({
      role: 'user',
      content: renderPrompt(reminder, { reason, tool_names: toolNames }, 'format-reminder-react'),
    }),
    finalStep: () => ({ role: 'user', content: finalStep }),
  };
}
