import { afterEach, describe, expect, it } from 'vitest';
import { summaryTokens, turnTokens } from '../../../src/core/memory/tokens.js';
import type { Turn } from '../../../src/core/memory/types.js';
import {
  echoSummary,
  isSummaryRequest,
  type MemoryFixture,
  shownText,
  startMemoryFixture,
} from './fixture.js';

const turn = (n: number, author = 'alice'): Turn => ({
  author,
  question: `Question number ${n} about the weather in town`,
  answer: `Answer number ${n}: sunny and mild.`,
});

describe('channel memory', () => {
  let fx: MemoryFixture;
  afterEach(() => fx.close());

  const summaryRequests = () => fx.fake.requests.filter(isSummaryRequest);
  const recordAll = async (key: string, turns: Turn[]) => {
    for (const t of turns) {
      await fx.memory.record(key, t);
      await fx.memory.idle();
    }
  };

  it('stores questions, answers and names without NUL bytes', async () => {
    fx = await startMemoryFixture();
    await fx.memory.record('c', {
      author: 'al\0ice',
      question: 'what\0 is\0\0 it?',
      answer: '\0forty-two\0',
    });
    expect(await fx.memory.context('c')).toEqual({
      summary: undefined,
      turns: [{ author: 'alice', question: 'what is it?', answer: 'forty-two' }],
    });
  });

  it('gives an empty context for a new channel and remembers turns in order', async () => {
    fx = await startMemoryFixture();
    expect(await fx.memory.context('console:local')).toEqual({ summary: undefined, turns: [] });
    await recordAll('console:local', [turn(1), turn(2, 'bob')]);
    expect(await fx.memory.context('console:local')).toEqual({
      summary: undefined,
      turns: [turn(1), turn(2, 'bob')],
    });
    expect(await fx.memory.report('console:local')).toEqual({
      summary: null,
      turns: 2,
      tokens: turnTokens(turn(1)) + turnTokens(turn(2, 'bob')),
      summarizedTurns: 0,
    });
  });

  it('compresses exactly when the turns exceed MEMORY_MAX_TOKENS, folding the oldest into the summary', async () => {
    const turns = [1, 2, 3, 4, 5].map((n) => turn(n));
    const sizes = turns.map(turnTokens);
    // Three turns fill the budget exactly; the fourth goes over it.
    fx = await startMemoryFixture({
      budget: { MEMORY_MAX_TOKENS: sizes[0]! + sizes[1]! + sizes[2]!, MEMORY_KEEP_TURNS: 2 },
    });
    await recordAll('k', turns.slice(0, 3));
    expect(summaryRequests()).toHaveLength(0);

    await recordAll('k', [turns[3]!]);
    expect(summaryRequests()).toHaveLength(1);
    const sent = shownText(summaryRequests()[0]!);
    // Down to half the budget means two turns go; the two newest stay verbatim.
    expect(sent).toContain(turns[0]!.question);
    expect(sent).toContain(turns[1]!.question);
    expect(sent).not.toContain(turns[2]!.question);
    expect(sent).not.toContain(turns[3]!.question);
    expect(sent).toContain('(none yet)');

    const summary = echoSummary(summaryRequests()[0]!);
    expect(await fx.memory.context('k')).toEqual({ summary, turns: [turns[2], turns[3]] });
    expect(await fx.memory.report('k')).toEqual({
      summary,
      turns: 2,
      tokens: sizes[2]! + sizes[3]! + summaryTokens(summary),
      summarizedTurns: 2,
    });

    // The fifth turn fits again: no new compression.
    await recordAll('k', [turns[4]!]);
    expect(summaryRequests()).toHaveLength(1);
  });

  it('waits for more than MEMORY_KEEP_TURNS turns before compressing, and keeps that many', async () => {
    const turns = [1, 2, 3, 4].map((n) => turn(n));
    fx = await startMemoryFixture({
      budget: { MEMORY_MAX_TOKENS: turnTokens(turns[0]!), MEMORY_KEEP_TURNS: 3 },
    });
    await recordAll('k', turns.slice(0, 3));
    expect(summaryRequests()).toHaveLength(0);
    await recordAll('k', [turns[3]!]);
    expect(summaryRequests()).toHaveLength(1);
    expect((await fx.memory.context('k')).turns).toEqual(turns.slice(1));
  });

  it('folds the new turns into the previous summary', async () => {
    fx = await startMemoryFixture({ budget: { MEMORY_MAX_TOKENS: 60, MEMORY_KEEP_TURNS: 1 } });
    await recordAll('k', [
      { author: 'alice', question: 'Please remember my project is called Atlas', answer: 'Will do.' },
      turn(2),
      turn(3),
      turn(4),
      turn(5),
      turn(6),
    ]);
    const requests = summaryRequests();
    expect(requests.length).toBeGreaterThanOrEqual(2);
    expect(shownText(requests.at(-1)!)).toContain('- [alice] Please remember my project is called Atlas');
    expect((await fx.memory.context('k')).summary).toContain('my project is called Atlas');
  });

  it('loses nothing while the summariser fails, and folds everything once it is back', async () => {
    let failing = true;
    fx = await startMemoryFixture({
      budget: { MEMORY_MAX_TOKENS: 130, MEMORY_KEEP_TURNS: 1 },
      fallback: (request) =>
        isSummaryRequest(request)
          ? failing
            ? { status: 500 }
            : { content: echoSummary(request) }
          : { content: 'unused' },
    });
    const first = { author: 'alice', question: 'Remember: the launch code is 4711', answer: 'Remembered.' };
    const turns = [first, ...Array.from({ length: 11 }, (_, i) => turn(i + 2))];
    await recordAll('k', turns);
    expect(summaryRequests().length).toBeGreaterThan(0);
    const stored = await fx.store.load('k');
    expect(stored.turns.map((t) => t.question)).toEqual(turns.map((t) => t.question));
    expect(stored.summary).toBeNull();
    // What the agent is shown stays bounded meanwhile: the newest turns within twice the budget.
    const shown = (await fx.memory.context('k')).turns;
    expect(shown.length).toBeLessThan(turns.length);
    expect(shown.reduce((n, t) => n + turnTokens(t), 0)).toBeLessThanOrEqual(260);
    expect(shown.at(-1)).toEqual(turns.at(-1));

    failing = false;
    const last = turn(99);
    await recordAll('k', [last]);
    const report = await fx.memory.report('k');
    expect(report.summarizedTurns + report.turns).toBe(turns.length + 1);
    expect(report.summary).toContain('the launch code is 4711');
    expect(report.summary).toContain(`Other exchanges: ${report.summarizedTurns - 1}`);
    expect((await fx.memory.context('k')).turns.at(-1)).toEqual(last);
  });

  it('keeps channels apart: context, compression and reset', async () => {
    fx = await startMemoryFixture({ budget: { MEMORY_MAX_TOKENS: 60, MEMORY_KEEP_TURNS: 1 } });
    const secret = { author: 'alice', question: 'Remember: my password hint is Zebra', answer: 'OK.' };
    await recordAll('discord:g1:c1', [secret, turn(2), turn(3), turn(4)]);
    await recordAll('slack:t1:c9', [turn(50, 'bob')]);
    const other = await fx.memory.context('slack:t1:c9');
    expect(other).toEqual({ summary: undefined, turns: [turn(50, 'bob')] });
    expect(JSON.stringify(other)).not.toContain('Zebra');
    for (const r of summaryRequests()) expect(shownText(r)).not.toContain('Question number 50');

    await fx.memory.reset('discord:g1:c1');
    expect(await fx.memory.report('discord:g1:c1')).toEqual({
      summary: null,
      turns: 0,
      tokens: 0,
      summarizedTurns: 0,
    });
    expect((await fx.memory.context('slack:t1:c9')).turns).toEqual([turn(50, 'bob')]);
  });

  it('keeps the summary within MEMORY_SUMMARY_MAX_TOKENS however long the channel talks', async () => {
    fx = await startMemoryFixture({
      budget: { MEMORY_MAX_TOKENS: 80, MEMORY_KEEP_TURNS: 1, MEMORY_SUMMARY_MAX_TOKENS: 40 },
      // A summariser that never forgets anything: only re-compression and the last-resort cut bound it.
      fallback: (request) => ({ content: `${shownText(request).slice(-2000)}` }),
    });
    for (let n = 1; n <= 30; n++) await recordAll('k', [turn(n)]);
    const report = await fx.memory.report('k');
    expect(report.summarizedTurns).toBeGreaterThan(20);
    expect(report.tokens).toBeLessThanOrEqual(80 + summaryTokens('x') + 40);
    expect(summaryRequests().some((r) => shownText(r).includes('has grown too long'))).toBe(true);
  });
});
