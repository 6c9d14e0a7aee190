import { z } from 'zod';
import { truncateToTokens } from '../memory/tokens.js';
import { BASE_SCOPE, type KnowledgeHit, type KnowledgeStore } from '../ports/knowledge-store.js';
import { defineTool, type Tool } from './define-tool.js';

/** The tool's name; prompts/knowledge.md is added to the system prompt when it is in force. */
export const KNOWLEDGE_TOOL = 'search_knowledge';
/** The prompt file (without extension) saying when to search and how to cite. */
export const KNOWLEDGE_PROMPT = 'knowledge';
export const DEFAULT_KNOWLEDGE_LIMIT = 5;
export const MAX_KNOWLEDGE_LIMIT = 10;

/** KNOWLEDGE_DIR (only whether it is set), KNOWLEDGE_BASE_URL and KNOWLEDGE_MAX_TOKENS. */
export interface KnowledgeSettings {
  KNOWLEDGE_DIR?: string | undefined;
  KNOWLEDGE_BASE_URL?: string | undefined;
  KNOWLEDGE_MAX_TOKENS: number;
}

/** What `search_knowledge` needs. */
export interface SearchKnowledgeDeps {
  store: Pick<KnowledgeStore, 'searchKnowledge'>;
  /** The observation never exceeds this many tokens. */
  maxTokens: number;
  /** KNOWLEDGE_BASE_URL: the knowledge base's files as links (`<url>/<path>`); none when unset. */
  baseUrl?: string | undefined;
  /** Whether KNOWLEDGE_DIR is set (else only files shared in the channel are searched). */
  hasBase: boolean;
}

/** How a hit is cited: `handbook/oncall.md § Rotation`, `policies/travel.pdf p. 3`. */
export function citation(hit: Pick<KnowledgeHit, 'path' | 'heading' | 'page'>): string {
  if (hit.page !== undefined) return `${hit.path} p. ${hit.page}`;
  return hit.heading ? `${hit.path} § ${hit.heading}` : hit.path;
}

/** The link to a knowledge base file under KNOWLEDGE_BASE_URL, each path segment encoded. */
export function knowledgeUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * `search_knowledge`: the passages of the knowledge base (KNOWLEDGE_DIR) and of the files shared in this
 * channel that best match a query, each with its source to cite; never another channel's files.
 */
export function createSearchKnowledgeTool(deps: SearchKnowledgeDeps): Tool {
  return defineTool({
    name: KNOWLEDGE_TOOL,
    // Documents people wrote: quoted as knowledge, never read as the asker's words.
    quotedAs: 'knowledge',
    description:
      (deps.hasBase
        ? "Searches the team's documents (handbooks, policies, notes) and the files"
        : 'Searches the files') +
      ' shared in this channel. Give a few keywords or a short question; returns the best passages, each with ' +
      'its source (file and page or section) to cite in the answer.',
    input: z.object({
      query: z
        .string()
        .min(1)
        .max(2000)
        .describe('keywords or a short question, e.g. "on-call swap approval"'),
      limit: z
        .number()
        .int()
        .min(1)
        .max(MAX_KNOWLEDGE_LIMIT)
        .optional()
        .describe(`passages to return, default ${DEFAULT_KNOWLEDGE_LIMIT}`),
    }),
    async execute(input, context) {
      const channel = context.settingsKey ?? context.key;
      const scopes = [...(deps.hasBase ? [BASE_SCOPE] : []), ...(channel ? [channel] : [])];
      const hits = await deps.store.searchKnowledge(
        scopes,
        input.query,
        input.limit ?? DEFAULT_KNOWLEDGE_LIMIT,
      );
      if (hits.length === 0) return `No passage matches "${input.query}".`;
      const blocks = hits.map((hit, i) => {
        const link =
          deps.baseUrl && hit.scope === BASE_SCOPE ? ` <${knowledgeUrl(deps.baseUrl, hit.path)}>` : '';
        const shared = hit.scope === BASE_SCOPE ? '' : ' (shared in this channel)';
        return `[${i + 1}] Source: ${citation(hit)}${shared}${link}\n${hit.text}`;
      });
      return truncateToTokens(blocks.join('\n\n'), deps.maxTokens);
    },
  });
}
