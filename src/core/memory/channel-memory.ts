import type { TokenUsage } from '../llm/types.js';
import type { Logger } from '../logger.js';
import type { ConversationStore } from '../ports/conversation-store.js';
import { createCompressor } from './compressor.js';
import { visibleWindow } from './fold-policy.js';
import type { Summarizer } from './summarizer.js';
import { turnTokens } from './tokens.js';
import type { ChannelMemory, MemoryBudget } from './types.js';

/** What channel memory is made of: storage, a summariser and the budget. */
export interface ChannelMemoryDeps {
  store: ConversationStore;
  summarizer: Summarizer;
  budget: MemoryBudget;
  logger?: Logger | undefined;
  /** Told what each summary call spent, and for which key. */
  onSummaryUsage?: ((key: string, usage: TokenUsage) => void) | undefined;
}

/** Channel memory over a store, compressed by the summariser whenever the budget is exceeded. */
export function createChannelMemory(deps: ChannelMemoryDeps): ChannelMemory {
  const { store, budget } = deps;
  const compressor = createCompressor(deps);
  return {
    async context(key) {
      const snapshot = await store.load(key, visibleWindow(budget));
      return {
        summary: snapshot.summary?.text,
        turns: snapshot.turns.map(({ author, question, answer }) => ({
          author,
          question,
          answer,
        })),
      };
    },
    async record(key, { author, question, answer, principal }) {
      // NUL bytes have no meaning in a conversation and break tools that read the database as text.
      const turn = { author: withoutNul(author), question: withoutNul(question), answer: withoutNul(answer) };
      // Counted once here and stored with the turn; loading context never tokenizes again. The store
      // archives it in the same transaction, so a crash before folding loses nothing.
      await store.appendTurn(key, { ...turn, tokens: turnTokens(turn), ...(principal ? { principal } : {}) });
      compressor.schedule(key);
    },
    reset: (key) => store.reset(key),
    async report(key) {
      const snapshot = await store.load(key);
      let tokens = snapshot.summary?.tokens ?? 0;
      for (const turn of snapshot.turns) tokens += turn.tokens;
      return {
        summary: snapshot.summary?.text ?? null,
        turns: snapshot.turns.length,
        tokens,
        summarizedTurns: snapshot.summarizedTurns,
      };
    },
    idle: (graceMs) => compressor.idle(graceMs),
  };
}

function withoutNul(text: string): string {
  return text.includes('\0') ? text.replaceAll('\0', '') : text;
}
