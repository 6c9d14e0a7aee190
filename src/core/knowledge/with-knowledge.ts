import type { Assistant } from '../assistant.js';
import type { Asker } from '../governance/asker.js';
import type { KnowledgeStore } from '../ports/knowledge-store.js';
import type { Tool } from '../tools/define-tool.js';
import { createSearchKnowledgeTool, type KnowledgeSettings } from '../tools/search-knowledge.js';
import { createKnowledgeCommand } from './knowledge-command.js';

/** The knowledge store and how `search_knowledge` reads it. */
export interface KnowledgeOptions {
  store: KnowledgeStore;
  settings: KnowledgeSettings;
}

/** `search_knowledge`, when there is knowledge to search. */
export function knowledgeTools(knowledge: KnowledgeOptions | undefined): Tool[] {
  if (!knowledge) return [];
  return [
    createSearchKnowledgeTool({
      store: knowledge.store,
      maxTokens: knowledge.settings.KNOWLEDGE_MAX_TOKENS,
      baseUrl: knowledge.settings.KNOWLEDGE_BASE_URL,
      hasBase: knowledge.settings.KNOWLEDGE_DIR !== undefined,
    }),
  ];
}

/** The assistant with `/knowledge`, whose `/reset` of a channel also forgets the files shared there. */
export function withKnowledge(
  assistant: Assistant,
  knowledge: KnowledgeOptions | undefined,
  isAdmin: (asker: Asker) => Promise<boolean>,
): Assistant {
  if (!knowledge) return assistant;
  return {
    ...assistant,
    async reset(key) {
      await assistant.reset(key);
      await knowledge.store.forgetKnowledgeScope(key);
    },
    knowledgeCommand: createKnowledgeCommand({
      store: knowledge.store,
      isAdmin,
      hasBase: knowledge.settings.KNOWLEDGE_DIR !== undefined,
    }),
  };
}
