import type { Agent } from '../agent/types.js';
import type { Assistant } from '../assistant.js';

/** Dependencies of the assistant service. */
export interface AssistantDeps {
  agent: Agent;
}

/** The platform-neutral service: one agent run per question. (Memory and ordering land with the memory issue.) */
export function createAssistant(deps: AssistantDeps): Assistant {
  return {
    async ask(request, onEvent) {
      return deps.agent.run(
        { message: request.text, author: request.author, context: { turns: [] }, signal: request.signal },
        onEvent,
      );
    },
    async reset() {},
    async memory() {
      return { summary: null, turns: 0, tokens: 0, summarizedTurns: 0 };
    },
    async close() {},
  };
}
