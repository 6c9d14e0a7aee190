import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ModelError } from '../../../src/core/errors.js';
import { createSummarizer, formatTranscript } from '../../../src/core/memory/summarizer.js';
import { countTokens } from '../../../src/core/memory/tokens.js';
import { loadPrompts } from '../../../src/core/prompts.js';
import { type FakeOpenAI, startFakeOpenAI } from '../../fakes/openai-server.js';
import { fakeModel, PROMPTS_DIR, shownText } from './fixture.js';

const turns = [
  { author: 'alice', question: 'My project is called Atlas.', answer: 'Noted: Atlas.' },
  { author: 'bob', question: 'What time is it?', answer: 'Noon.' },
];

describe('summarizer over a scripted model', () => {
  let fake: FakeOpenAI;
  beforeEach(async () => {
    fake = await startFakeOpenAI();
  });
  afterEach(() => fake.close());

  const summarizer = (maxTokens = 600) =>
    createSummarizer({ model: fakeModel(fake), prompts: loadPrompts(PROMPTS_DIR), maxTokens });

  it('appends a part for the old turns to the previous summary, unchanged, in one call to prompts/summary.md', async () => {
    fake.script({ content: '  Alice runs Atlas. Bob asked the time.  ' });
    const summary = await summarizer().summarize({ previous: 'Earlier: Carol likes tea.', turns });
    // The summary already sent stays a prefix of the new one, so the model server's prompt cache holds.
    expect(summary).toBe('Earlier: Carol likes tea.\n\nAlice runs Atlas. Bob asked the time.');
    expect(fake.requests).toHaveLength(1);
    const sent = shownText(fake.requests[0]!);
    expect(sent).toContain('You keep the running summary');
    expect(sent).toContain('Previous summary:\nEarlier: Carol likes tea.');
    expect(sent).toContain('[alice] My project is called Atlas.\nAssistant: Noted: Atlas.');
    expect(sent).toContain('[bob] What time is it?\nAssistant: Noon.');
    expect(sent).not.toMatch(/\{[a-z_]+\}/);
  });

  it('says so when there is no previous summary', async () => {
    fake.script({ content: 'Alice runs Atlas.' });
    await summarizer().summarize({ turns });
    expect(shownText(fake.requests[0]!)).toContain('Previous summary:\n(none yet)');
  });

  it('asks for a short part, and rewrites the whole summary only once the parts outgrow the budget', async () => {
    const previous = 'Carol likes tea. '.repeat(20).trim();
    fake.script({ content: 'Alice runs Atlas.' });
    expect(await summarizer(200).summarize({ previous, turns })).toBe(`${previous}\n\nAlice runs Atlas.`);
    expect(shownText(fake.requests[0]!)).toContain('at most about 18 words');

    fake.script(
      { content: 'Alice runs Atlas. '.repeat(40).trim() },
      { content: 'Carol likes tea; Alice runs Atlas.' },
    );
    expect(await summarizer(200).summarize({ previous, turns })).toBe('Carol likes tea; Alice runs Atlas.');
    const rewrite = shownText(fake.requests[2]!);
    expect(rewrite).toContain('has grown too long');
    // Rewritten to well under the budget, so the next rewrite is several parts away.
    expect(rewrite).toContain('at most about 48 words');
    expect(rewrite).toContain(`Summary:\n${previous}\n\nAlice runs Atlas.`);
  });

  it('re-compresses a summary over MEMORY_SUMMARY_MAX_TOKENS with prompts/summary-compress.md', async () => {
    const long = 'Alice runs Atlas. '.repeat(40);
    fake.script({ content: long }, { content: 'Alice runs Atlas.' });
    expect(await summarizer(30).summarize({ turns })).toBe('Alice runs Atlas.');
    expect(fake.requests).toHaveLength(2);
    const second = shownText(fake.requests[1]!);
    expect(second).toContain('has grown too long');
    expect(second).toContain(long.trim());
  });

  it('cuts a summary that is still too long, so it stays bounded', async () => {
    const long = 'Alice runs Atlas. '.repeat(40);
    fake.script({ content: long }, { content: long });
    const summary = await summarizer(30).summarize({ turns });
    expect(countTokens(summary)).toBeLessThanOrEqual(30);
    expect(summary.startsWith('Alice runs Atlas.')).toBe(true);
  });

  it('fails on an empty summary instead of dropping the turns', async () => {
    fake.script({ content: '   ' });
    await expect(summarizer().summarize({ turns })).rejects.toBeInstanceOf(ModelError);
  });

  it('fails when the model fails', async () => {
    fake.script({ status: 500 });
    await expect(summarizer().summarize({ turns })).rejects.toBeInstanceOf(ModelError);
  });

  it('fails at creation when a prompt file is missing', () => {
    expect(() => createSummarizer({ model: fakeModel(fake), prompts: {}, maxTokens: 10 })).toThrow(
      /prompts\/summary\.md/,
    );
  });
});

describe('formatTranscript', () => {
  it('names each speaker and the assistant', () => {
    expect(formatTranscript(turns)).toBe(
      '[alice] My project is called Atlas.\nAssistant: Noted: Atlas.\n\n[bob] What time is it?\nAssistant: Noon.',
    );
  });
});
