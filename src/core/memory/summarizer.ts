import type { TokenUsage } from '../agent/events.js';
import { escapeHeaderLines, speakerName } from '../agent/speaker.js';
import { ModelError } from '../errors.js';
import type { ChatModel } from '../llm/types.js';
import type { Logger } from '../logger.js';
import { getPrompt, type PromptSet, renderPrompt } from '../prompts.js';
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

/** Summarises with one call to prompts/summary.md, and a second to prompts/summary-compress.md if it ran long. */
export function createSummarizer(deps: SummarizerDeps): Summarizer {
  const foldTemplate = getPrompt(deps.prompts, 'summary');
  const compressTemplate = getPrompt(deps.prompts, 'summary-compress');
  // Models count words, not tokens; English runs about 0.75 words a token, and headroom helps.
  const maxWords = String(Math.max(10, Math.floor(deps.maxTokens * 0.6)));

  async function ask(
    content: string,
    signal: AbortSignal | undefined,
    onUsage: ((usage: TokenUsage) => void) | undefined,
  ): Promise<string> {
    const completion = await deps.model.complete({ messages: [{ role: 'user', content }], signal });
    onUsage?.(completion.usage);
    const text = completion.content.trim();
    // An empty summary would silently drop the folded turns; failing keeps them for a retry.
    if (!text) throw new ModelError('model_error', 'The summariser returned an empty summary.');
    return text;
  }

  return {
    async summarize({ previous, turns }, signal, onUsage) {
      const prompt = renderPrompt(
        foldTemplate,
        {
          previous_summary: previous?.trim() || '(none yet)',
          conversation: formatTranscript(turns),
          max_words: maxWords,
          max_tokens: String(deps.maxTokens),
        },
        'prompts/summary',
      );
      let summary = await ask(prompt, signal, onUsage);
      if (countTokens(summary) <= deps.maxTokens) return summary;
      summary = await ask(
        renderPrompt(
          compressTemplate,
          { summary, max_words: maxWords, max_tokens: String(deps.maxTokens) },
          'prompts/summary-compress',
        ),
        signal,
        onUsage,
      );
      if (countTokens(summary) <= deps.maxTokens) return summary;
      deps.logger?.warn(
        { tokens: countTokens(summary), max: deps.maxTokens },
        'summary still over MEMORY_SUMMARY_MAX_TOKENS after re-compression; truncating it',
      );
      return truncateToTokens(summary, deps.maxTokens);
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
