import { afterEach, describe, expect, it } from 'vitest';
import { createCompressor } from '../../../src/core/memory/compressor.js';
import type { Summarizer } from '../../../src/core/memory/summarizer.js';
import { turnTokens } from '../../../src/core/memory/tokens.js';
import type { MemoryBudget, Turn } from '../../../src/core/memory/types.js';
import type { ConversationStore } from '../../../src/core/ports/conversation-store.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { waitUntil, withDeadline } from '../../helpers/wait-until.js';

const turn = (n: number): Turn => ({ author: 'alice', question: `question ${n}`, answer: `answer ${n}` });
const budget: MemoryBudget = { MEMORY_MAX_TOKENS: 64, MEMORY_KEEP_TURNS: 1, MEMORY_SUMMARY_MAX_TOKENS: 100 };

/** A summariser whose calls wait until the test settles them. */
function gatedSummarizer() {
  const calls: {
    turns: readonly Turn[];
    previous?: string | undefined;
    resolve(s: string): void;
    reject(e: Error): void;
  }[] = [];
  let waiters: (() => void)[] = [];
  const summarizer: Summarizer = {
    summarize: (input) =>
      new Promise<string>((resolve, reject) => {
        calls.push({ ...input, resolve, reject });
        for (const w of waiters.splice(0)) w();
      }),
  };
  const called = async (count: number) => {
    const arrived = async () => {
      while (calls.length < count) await new Promise<void>((r) => waiters.push(r));
    };
    await withDeadline(arrived(), { what: () => `${count} summariser calls (got ${calls.length})` });
  };
  return { summarizer, calls, called, reset: () => (waiters = []) };
}

describe('compressor', () => {
  let store: ConversationStore;
  afterEach(() => store.close());

  const append = (key: string, n: number) =>
    store.appendTurn(key, { ...turn(n), tokens: turnTokens(turn(n)) });

  it('runs one compression per key at a time and runs again if asked meanwhile', async () => {
    store = openSqliteStore(':memory:');
    const gate = gatedSummarizer();
    const compressor = createCompressor({ store, summarizer: gate.summarizer, budget });
    for (let n = 1; n <= 4; n++) await append('k', n);
    compressor.schedule('k');
    await gate.called(1);
    for (let n = 5; n <= 8; n++) await append('k', n);
    compressor.schedule('k');
    compressor.schedule('k');
    expect(gate.calls).toHaveLength(1);
    gate.calls[0]!.resolve('first summary');
    await gate.called(2);
    expect(gate.calls[1]!.previous).toBe('first summary');
    expect(gate.calls[1]!.turns.map((t) => t.question)).not.toContain('question 1');
    gate.calls[1]!.resolve('second summary');
    await compressor.idle();
    expect(gate.calls).toHaveLength(2);
    const after = await store.load('k');
    expect(after.summary?.text).toBe('second summary');
    expect(after.summarizedTurns + after.turns.length).toBe(8);
  });

  it('keeps turns appended while a compression is in flight', async () => {
    store = openSqliteStore(':memory:');
    const gate = gatedSummarizer();
    const compressor = createCompressor({ store, summarizer: gate.summarizer, budget });
    for (let n = 1; n <= 4; n++) await append('k', n);
    compressor.schedule('k');
    await gate.called(1);
    const folded = gate.calls[0]!.turns.length;
    await append('k', 5);
    gate.calls[0]!.resolve('summary');
    await compressor.idle();
    const after = await store.load('k');
    expect(after.summarizedTurns).toBe(folded);
    expect(after.turns.map((t) => t.question).at(-1)).toBe('question 5');
    expect(after.summarizedTurns + after.turns.length).toBe(5);
  });

  it('drops a summary made before a reset', async () => {
    store = openSqliteStore(':memory:');
    const gate = gatedSummarizer();
    const compressor = createCompressor({ store, summarizer: gate.summarizer, budget });
    for (let n = 1; n <= 4; n++) await append('k', n);
    compressor.schedule('k');
    await gate.called(1);
    await store.reset('k');
    gate.calls[0]!.resolve('summary of forgotten turns');
    await compressor.idle();
    expect(await store.load('k')).toMatchObject({ summary: null, turns: [], summarizedTurns: 0 });
  });

  it('leaves the raw turns when the summariser fails, and retries on the next schedule', async () => {
    store = openSqliteStore(':memory:');
    const gate = gatedSummarizer();
    const compressor = createCompressor({ store, summarizer: gate.summarizer, budget });
    for (let n = 1; n <= 4; n++) await append('k', n);
    const before = await store.load('k');
    compressor.schedule('k');
    await gate.called(1);
    gate.calls[0]!.reject(new Error('model down'));
    await compressor.idle();
    expect(await store.load('k')).toEqual(before);

    compressor.schedule('k');
    await gate.called(2);
    expect(gate.calls[1]!.turns).toEqual(gate.calls[0]!.turns);
    gate.calls[1]!.resolve('back');
    await compressor.idle();
    expect((await store.load('k')).summary?.text).toBe('back');
  });

  it('does nothing when no compression is due', async () => {
    store = openSqliteStore(':memory:');
    const gate = gatedSummarizer();
    const compressor = createCompressor({ store, summarizer: gate.summarizer, budget });
    await append('k', 1);
    expect(await compressor.compress('k')).toBe(0);
    compressor.schedule('k');
    await compressor.idle();
    expect(gate.calls).toHaveLength(0);
  });

  it('compresses keys independently', async () => {
    store = openSqliteStore(':memory:');
    const gate = gatedSummarizer();
    const compressor = createCompressor({ store, summarizer: gate.summarizer, budget });
    for (let n = 1; n <= 4; n++) {
      await append('a', n);
      await append('b', n + 100);
    }
    compressor.schedule('a');
    compressor.schedule('b');
    await gate.called(2);
    gate.calls[1]!.resolve('summary of b');
    gate.calls[0]!.resolve('summary of a');
    await compressor.idle();
    expect((await store.load('a')).summary?.text).toBe('summary of a');
    expect((await store.load('b')).summary?.text).toBe('summary of b');
  });

  it('on shutdown waits a grace period, then cancels a hung summary and keeps every turn', async () => {
    store = openSqliteStore(':memory:');
    let seen: AbortSignal | undefined;
    const hung: Summarizer = {
      summarize: (_input, signal) =>
        new Promise<string>((_, reject) => {
          seen = signal;
          signal?.addEventListener('abort', () => reject(signal.reason));
        }),
    };
    const compressor = createCompressor({ store, summarizer: hung, budget });
    for (let n = 1; n <= 4; n++) await append('k', n);
    compressor.schedule('k');
    await waitUntil(() => seen !== undefined, { what: 'the summariser to be called' });
    await compressor.idle(20);
    expect(seen?.aborted).toBe(true);
    const after = await store.load('k');
    expect(after.turns.map((t) => t.question)).toEqual([
      'question 1',
      'question 2',
      'question 3',
      'question 4',
    ]);
    expect(after.summary).toBeFalsy();
  });
});
