import { countTokens } from 'gpt-tokenizer';
import { formatSummaryMessage } from '../../src/core/agent/build-messages.js';
import type { Assistant } from '../../src/core/assistant.js';

/** Tokens a chat message costs beyond its text, as OpenAI documents. */
export const PER_MESSAGE = 4;

/** Resolves once the stored turns are within `maxTokens` again (or after 2 s): compression has caught up. */
export async function caughtUp(assistant: Assistant, key: string, maxTokens: number): Promise<void> {
  const deadline = performance.now() + 2000;
  while (performance.now() < deadline) {
    const report = await assistant.memory(key);
    const summary = report.summary ? countTokens(formatSummaryMessage(report.summary)) + PER_MESSAGE : 0;
    if (report.tokens - summary <= maxTokens) return;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/**
 * What an obedient summariser writes for one of the summary prompts: a sentence per question in the new
 * part, after the previous summary when the prompt asks for the whole summary, within `maxWords`.
 */
export function obedientSummary(prompt: string, maxWords: number): string {
  const facts = [...prompt.matchAll(/\[(\w+)\] #(\d+) ((?:\w+ ){4})/g)].map(
    ([, author, k, start]) => `${author} asked (#${k}) about ${start?.trim()}, and got an answer.`,
  );
  const onlyNew = /only the new part/i.test(prompt);
  const previous = onlyNew
    ? ''
    : (/Previous summary:\n([\s\S]*?)\n\nNew part/.exec(prompt)?.[1] ??
      /Summary:\n([\s\S]*)$/.exec(prompt)?.[1] ??
      '');
  const words = `${previous === '(none yet)' ? '' : previous} ${facts.join(' ')}`
    .split(/\s+/)
    .filter(Boolean);
  return words.slice(-maxWords).join(' ') || 'Nothing to remember yet.';
}
