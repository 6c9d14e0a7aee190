import type { Observation, PendingCall } from '../agent/tool-call.js';
import { failSpan, inSpan, tracesContent } from './spans.js';

/** Runs one tool call in an `execute_tool <name>` span (GenAI conventions), in error when the tool failed. */
export function tracedToolCall(call: PendingCall, run: () => Promise<Observation>): Promise<Observation> {
  return inSpan(
    `execute_tool ${call.tool}`,
    {
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': call.tool,
        'gen_ai.tool.call.id': call.id,
        ...(tracesContent()
          ? {
              'gen_ai.tool.call.arguments':
                typeof call.input === 'string' ? call.input : JSON.stringify(call.input),
            }
          : {}),
      },
    },
    async (span) => {
      const observation = await run();
      if (!observation.ok) failSpan(span, undefined, 'tool_error');
      if (tracesContent()) span.setAttribute('gen_ai.tool.call.result', observation.text);
      return observation;
    },
  );
}
