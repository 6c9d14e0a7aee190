import { escapeHeaderLines, speakerName } from '../agent/speaker.js';
import { ModelError } from '../errors.js';
import type { ChatModel, TokenUsage } from '../llm/types.js';
import type { Logger } from '../logger.js';
import { getPrompt, type PromptSet, renderPrompt } from '../prompts.js';
import { linkedSignal } from '../util/linked-signal.js';
import { countTokens, truncateToTokens } from './tokens.js';
import type { Turn } from './types.js';

/** Old turns plus the previous summary in, a new summary out. */
export interface Summarizer {
  /** The new running summary; throws (a ModelError, an abort) when the model fails, changing nothing. */
  summarize(
    input: { previous?: string | undefined; turns: readonly Turn[] },
    signal?: AbortSignal,
    /** Told what each model call spent (summaries are billed to their channel). */
    onUsage?: (usage: TokenUsage) => void,
  ): Promise<string>;
}

/** What the summariser needs: a model (SUMMARY_MODEL or LLM_MODEL), the prompts and the summary budget. */
export interface SummarizerDeps {
  model: ChatModel;
  /** Must hold `summary` and `summary-compress`. */
  prompts: PromptSet;
  /** MEMORY_SUMMARY_MAX_TOKENS. */
  maxTokens: number;
  logger?: Logger | undefined;
}

/** A new part of the summary is written in at most this share of MEMORY_SUMMARY_MAX_TOKENS. */
export const PART_SHARE = 0.15;
/** A rewrite brings the whole summary down to this share of MEMORY_SUMMARY_MAX_TOKENS, so the next is a while off. */
export const REWRITE_SHARE = 0.4;
/** Models count words, not tokens; English runs about 0.75 words a token, and headroom helps. */
const WORDS_PER_TOKEN = 0.6;

/**
 * Summarises the folded turns into a new part appended to the previous summary (prompts/summary.md), so the
 * summary already sent stays a stable prompt prefix that servers can cache. Only when the parts outgrow
 * MEMORY_SUMMARY_MAX_TOKENS is the whole summary rewritten, to half of that (prompts/summary-compress.md).
 */
export function createSummarizer(deps: SummarizerDeps): Summarizer {
  const foldTemplate = getPrompt(deps.prompts, 'summary');
  const compressTemplate = getPrompt(deps.prompts, 'summary-compress');
  const wordsFor = (share: number) =>
    String(Math.max(10, Math.floor(deps.maxTokens * share * WORDS_PER_TOKEN)));

  async function ask(
    content: string,
    signal: AbortSignal | undefined,
    onUsage: ((usage: TokenUsage) => void) | undefined,
  ): Promise<string> {
    // The caller's signal lives as long as the process: the request gets a child of it, dropped afterwards.
    const call = linkedSignal(signal);
    const completion = await deps.model
      .complete({ messages: [{ role: 'user', content }], signal: call.signal })
      .finally(call.dispose);
    onUsage?.(completion.usage);
    const text = completion.content.trim();
    // An empty summary would silently drop the folded turns; failing keeps them for a retry.
    if (!text) throw new ModelError('model_error', 'The summariser returned an empty summary.');
    return text;
  }

  return {
    async summarize({ previous, turns }, signal, onUsage) {
      const before = previous?.trim();
      const part = await ask(
        renderPrompt(
          foldTemplate,
          {
            previous_summary: before || '(none yet)',
            conversation: formatTranscript(turns),
            max_words: wordsFor(PART_SHARE),
            max_tokens: String(Math.floor(deps.maxTokens * PART_SHARE)),
          },
          'prompts/summary',
        ),
        signal,
        onUsage,
      );
      const summary = before ? `${before}\n\n${part}` : part;
      if (countTokens(summary) <= deps.maxTokens) return summary;
      const rewritten = await ask(
        renderPrompt(
          compressTemplate,
          {
            summary,
            max_words: wordsFor(REWRITE_SHARE),
            max_tokens: String(Math.floor(deps.maxTokens * REWRITE_SHARE)),
          },
          'prompts/summary-compress',
        ),
        signal,
        onUsage,
      );
      if (countTokens(rewritten) <= deps.maxTokens) return rewritten;
      deps.logger?.warn(
        { tokens: countTokens(rewritten), max: deps.maxTokens },
        'summary still over MEMORY_SUMMARY_MAX_TOKENS after a rewrite; truncating it',
      );
      return truncateToTokens(rewritten, deps.maxTokens);
    },
  };
}

const ASSISTANT = 'Assistant:';

/** The turns as the summariser reads them: `[author] question` then `Assistant: answer`, no line forging either. */
export function formatTranscript(turns: readonly Turn[]): string {
  return turns
    .map(
      (t) =>
        `[${speakerName(t.author)}] ${escapeHeaderLines(t.question, [ASSISTANT])}\n` +
        `${ASSISTANT} ${escapeHeaderLines(t.answer, [ASSISTANT])}`,
    )
    .join('\n\n');
}
